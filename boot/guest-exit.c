/*
 * guest-exit CODE -- end the QEMU guest, handing CODE to the host.
 *
 * QEMU's isa-debug-exit device at port 0xf4 makes QEMU exit with status
 * (CODE << 1) | 1 as soon as a byte is written to it, so the verdict
 * needs no shutdown path, no ACPI and no disk.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>

#define DEBUG_EXIT_PORT 0xf4

int main(int argc, char **argv)
{
	if (argc != 2) {
		fputs("usage: guest-exit CODE\n", stderr);
		return 2;
	}
	if (ioperm(DEBUG_EXIT_PORT, 1, 1) != 0) {
		perror("guest-exit: ioperm");
		return 1;
	}
	outb(strtoul(argv[1], NULL, 0), DEBUG_EXIT_PORT);
	fputs("guest-exit: still running: no isa-debug-exit device?\n", stderr);
	return 1;
}
