/*
 * no_mallopt.c - an LD_PRELOAD shim that makes mallopt(3) do nothing, for
 * bench/writer_cost's runs of profdb under callgrind.
 *
 * Why: cmd/main.c sets M_MMAP_THRESHOLD to 1 MB, so blocks below that come
 * from the brk heap.  Under valgrind (every tool but memcheck, which has
 * its own malloc) the client's brk heap stops near 8 MB, and there glibc's
 * calloc of the intern map's growth (327 KB) returned NULL: a Kineto
 * ingest failed with "out of memory".  Without the mallopt glibc keeps its
 * own thresholds and the run completes.  The instructions counted then
 * include glibc's default allocation paths, not the 1 MB threshold's: a
 * small difference in a figure that compares the writer with its floor.
 */
int mallopt(int param, int value);

int mallopt(int param, int value)
{
	(void)param;
	(void)value;
	return 1;
}
