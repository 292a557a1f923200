/*
 * banned.h - functions we never call (git's banned.h).  Included last in
 * every lib/ file so a use is a compile error: each has a bounded or
 * re-entrant replacement (snprintf, strtoll with checks, gmtime_r, ...).
 */
#ifndef PROFDB_BANNED_H
#define PROFDB_BANNED_H

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef atoi
#define atoi(x) BANNED(atoi)
#undef gmtime
#define gmtime(x) BANNED(gmtime)
#undef localtime
#define localtime(x) BANNED(localtime)

#endif
