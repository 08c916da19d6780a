/* Maps MB megabytes, asks for transparent huge pages (MADV_HUGEPAGE, as
 * JVMs and some allocators do) unless the second argument is "small", and
 * touches every page. Run after itself, the 2 MB blocks it freed are there
 * for the taking; run after a program that filled the page cache (writer.c),
 * the kernel must reclaim and compact memory first: system time. Part of
 * bench/carry-over.sh. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    size_t n = strtoul(argv[1], 0, 10) << 20;
    char *p = mmap(0, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return 1;
    if (!(argc > 2 && strcmp(argv[2], "small") == 0)) madvise(p, n, MADV_HUGEPAGE);
    for (size_t i = 0; i < n; i += 4096) p[i] = (char)i;
    return munmap(p, n) != 0;
}
