/*
 * fs_path.c - file-system predicates on paths (fs_path.h).
 */
#include <string.h>
#include <sys/stat.h>

#include "fs_path.h"
#include "banned.h"

int profdb__path_is_dir(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

int profdb__path_is_file(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

int profdb__path_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}
