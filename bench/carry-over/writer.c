/* Writes MB megabytes to PATH (replacing it), as a program that writes its
 * output file would: the pages stay in the page cache after it exits. Part of
 * bench/carry-over.sh: what it leaves behind slows the next program that
 * asks for huge pages (huge.c). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    size_t mb = strtoul(argv[2], 0, 10);
    static char buf[1 << 20];
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (char)(i * 2654435761u >> 24);
    int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return 1;
    for (size_t i = 0; i < mb; i++) {
        buf[0] = (char)i;
        if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf) return 1;
    }
    return close(fd) != 0;
}
