module example.com/hashbench

go 1.22
