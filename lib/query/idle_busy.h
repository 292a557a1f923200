/*
 * idle_busy.h - the ranks' busy time that profdb idle splits its gaps by
 * (idle_busy.c): the union of each rank's device activities, held or kept
 * in a temporary table.  Private to lib/query.
 */
#ifndef PROFDB_IDLE_BUSY_H
#define PROFDB_IDLE_BUSY_H

#include "internal.h"

struct uiv;

struct profdb__idle_busy {
	profdb *db;
	sqlite3_stmt *u_ins, *u_at; /* an interval in, the one at a time */
	sqlite3_stmt *u_next;      /* the intervals of a rank after one, in order (the spilled union read forward) */
	struct ucur {
		int ok, have, more;     /* positioned; at[] is an interval; next[] is the one after it */
		int64_t run, rank, t;   /* where: the rank and the last time asked */
		int64_t at[3], next[3]; /* s, e, cum */
	} cur;                     /* the spilled union's reading position */
	struct uiv *u;             /* the union while it fits the hold (else in u_ins's table) */
	size_t nu, ucap, uhold;
	int spilled;
	sqlite3_stmt *o_ins, *o_at; /* the ranks' first start: in, by rank */
	int64_t run, rank;         /* the rank asked about (profdb__idle_busy_rank) */
};

/* Build the union of f's activities, every rank, into c (errors on db).
 * Close c after, whatever this returns. */
int profdb__idle_busy_open(struct profdb__idle_busy *c, profdb *db, const struct profdb_filter *f);
void profdb__idle_busy_close(struct profdb__idle_busy *c);
/* Ask about (run, rank) from now on; its first activity's start (dflt
 * when it has none). */
int64_t profdb__idle_busy_rank(struct profdb__idle_busy *c, int64_t run, int64_t rank, int64_t dflt);
/* The rank's busy time before t: the length of the union of all its
 * activities (every stream) that lies before t; -1 on an error.  The times
 * asked should not decrease along a stream (each decrease costs a seek
 * once the union is spilled). */
int64_t profdb__idle_busy_before(struct profdb__idle_busy *c, int64_t t);

#endif
