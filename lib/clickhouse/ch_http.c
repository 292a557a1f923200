/*
 * ch_http.c - talking to a ClickHouse server over its HTTP interface
 * (libcurl): the clickhouse:// URL, credentials, one statement per request,
 * server errors turned into one line.  The HTTP interface is the one every
 * server since 2016 speaks (Debian 12 ships 18.16).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <pthread.h>
#include <curl/curl.h>

#include "ch.h"
#include "banned.h"

struct profdb__ch {
	CURL *curl;
	char *base;                /* "http[s]://" */
	char *hostport;            /* "host:port/" */
	char *where;               /* "host:port/database" for messages */
	char *database;            /* an identifier (checked) */
	char *user;                /* NULL: none given (netrc or the server's default) */
	char *password;            /* NULL: none given */
	int readonly;              /* send readonly=2: the server refuses writes */
	int readonly_server;       /* the user is read-only at the server already */
	int timeout_s;             /* idle-read timeout of each request */
	char *netrc;               /* the netrc file; NULL: libcurl's ~/.netrc */
	char *cainfo;              /* the CA file; NULL: the system's CAs */
};

void profdb__ch_set_readonly(struct profdb__ch *c)
{
	c->readonly = 1;
}

int profdb__ch_buf_add(struct profdb__ch_buf *b, const void *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *d = realloc(b->data, cap);
		if (!d)
			return -1;
		b->data = d;
		b->cap = cap;
	}
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

void profdb__ch_buf_free(struct profdb__ch_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

int profdb__ch_is_url(const char *url)
{
	return url && (strncmp(url, "clickhouse://", 13) == 0 || strncmp(url, "clickhouses://", 14) == 0);
}

/* Copy n bytes of s, %XX-decoded; NULL out of memory or bad escape. */
static char *pct_decode(const char *s, size_t n)
{
	char *out = malloc(n + 1), *o = out;
	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '%') {
			*o++ = s[i];
			continue;
		}
		if (i + 2 >= n || !isxdigit((unsigned char)s[i + 1]) ||
		    !isxdigit((unsigned char)s[i + 2])) {
			free(out);
			return NULL;
		}
		char hex[3] = { s[i + 1], s[i + 2], 0 };
		*o++ = (char)strtol(hex, NULL, 16);
		i += 2;
	}
	*o = '\0';
	return out;
}

static int is_ident(const char *s)
{
	if (!*s || isdigit((unsigned char)*s))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

/* user[:password]@ of the URL, if any, into c. */
static int parse_userinfo(struct profdb__ch *c, const char *s, size_t n, struct profdb_err *err)
{
	const char *colon = memchr(s, ':', n);
	size_t ulen = colon ? (size_t)(colon - s) : n;
	c->user = pct_decode(s, ulen);
	if (colon)
		c->password = pct_decode(colon + 1, n - ulen - 1);
	if (!c->user || (colon && !c->password))
		return profdb__err_set(err, PROFDB_EUSAGE, "bad user or password in the clickhouse URL");
	return PROFDB_OK;
}

static int parse_url(struct profdb__ch *c, const char *url, struct profdb_err *err)
{
	int tls = strncmp(url, "clickhouses://", 14) == 0;
	const char *p = url + (tls ? 14 : 13), *slash = strchr(p, '/'), *at;
	if (!slash || !slash[1])
		return profdb__err_set(err, PROFDB_EUSAGE,
		    "clickhouse URL needs a database: clickhouse://[user[:password]@]host[:port]/database");
	at = NULL;
	for (const char *q = p; q < slash; q++)
		if (*q == '@')
			at = q;
	if (at && parse_userinfo(c, p, (size_t)(at - p), err) != PROFDB_OK)
		return err->code;
	const char *host = at ? at + 1 : p;
	size_t hlen = (size_t)(slash - host);
	if (hlen == 0 || hlen > 255)
		return profdb__err_set(err, PROFDB_EUSAGE, "clickhouse URL has no host");
	const char *colon = memchr(host, ':', hlen);
	char hostport[300];
	if (colon)
		snprintf(hostport, sizeof hostport, "%.*s", (int)hlen, host);
	else
		snprintf(hostport, sizeof hostport, "%.*s:%d", (int)hlen, host, tls ? 8443 : 8123);
	c->database = strdup(slash + 1);
	if (!c->database)
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	if (!is_ident(c->database))
		return profdb__err_set(err, PROFDB_EUSAGE,
		    "clickhouse database name must be letters, digits and '_'");
	size_t bl = strlen(hostport) + 2, wl = strlen(hostport) + strlen(c->database) + 2;
	c->base = strdup(tls ? "https://" : "http://");
	c->hostport = malloc(bl);
	c->where = malloc(wl);
	if (!c->base || !c->hostport || !c->where)
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	snprintf(c->hostport, bl, "%s/", hostport);
	snprintf(c->where, wl, "%s/%s", hostport, c->database);
	return PROFDB_OK;
}

/* curl_global_init is not thread-safe, and connections are opened from
 * several threads (push's parts, diff's fetch; a library user's handles):
 * it runs once, whichever thread comes first. */
static pthread_once_t curl_once = PTHREAD_ONCE_INIT;

static void curl_setup(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
}

int profdb__ch_open(struct profdb__ch **out, const char *url, const struct profdb__remote *ro,
                    struct profdb_err *err)
{
	struct profdb__ch *c = calloc(1, sizeof *c);
	*out = NULL;
	if (!c)
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	if (!profdb__ch_is_url(url)) {
		profdb__ch_close(c);
		return profdb__err_set(err, PROFDB_EUSAGE, "not a clickhouse:// URL");
	}
	if (parse_url(c, url, err) != PROFDB_OK) {
		profdb__ch_close(c);
		return err->code;
	}
	const char *pw = ro ? ro->password : NULL;
	if ((!c->password && pw && *pw && !(c->password = strdup(pw))) ||
	    (ro && ro->netrc && *ro->netrc && !(c->netrc = strdup(ro->netrc))) ||
	    (ro && ro->cainfo && *ro->cainfo && !(c->cainfo = strdup(ro->cainfo)))) {
		profdb__ch_close(c);
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	}
	pthread_once(&curl_once, curl_setup);
	c->curl = curl_easy_init();
	if (!c->curl) {
		profdb__ch_close(c);
		return profdb__err_set(err, PROFDB_ERROR, "cannot initialise libcurl");
	}
	c->timeout_s = ro && ro->read_timeout_s > 0 ? ro->read_timeout_s : PROFDB_REMOTE_TIMEOUT_DEFAULT;
	*out = c;
	return PROFDB_OK;
}

/* Each field of c copied, with a curl handle of its own. */
int profdb__ch_dup(const struct profdb__ch *c, struct profdb__ch **out, struct profdb_err *err)
{
	struct profdb__ch *d = calloc(1, sizeof *d);
	*out = NULL;
	if (!d)
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	d->base = strdup(c->base);
	d->hostport = strdup(c->hostport);
	d->where = strdup(c->where);
	d->database = strdup(c->database);
	d->user = c->user ? strdup(c->user) : NULL;
	d->password = c->password ? strdup(c->password) : NULL;
	d->netrc = c->netrc ? strdup(c->netrc) : NULL;
	d->cainfo = c->cainfo ? strdup(c->cainfo) : NULL;
	d->readonly = c->readonly;
	d->readonly_server = c->readonly_server;
	d->timeout_s = c->timeout_s;
	d->curl = curl_easy_init();
	if (!d->base || !d->hostport || !d->where || !d->database || !d->curl ||
	    (c->user && !d->user) || (c->password && !d->password) || (c->netrc && !d->netrc) ||
	    (c->cainfo && !d->cainfo)) {
		profdb__ch_close(d);
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	}
	*out = d;
	return PROFDB_OK;
}

void profdb__ch_close(struct profdb__ch *c)
{
	if (!c)
		return;
	if (c->curl)
		curl_easy_cleanup(c->curl);
	if (c->password) /* not left in freed memory */
		memset(c->password, 0, strlen(c->password));
	free(c->password);
	free(c->user);
	free(c->netrc);
	free(c->cainfo);
	free(c->database);
	free(c->where);
	free(c->base);
	free(c->hostport);
	free(c);
}

const char *profdb__ch_where(const struct profdb__ch *c)
{
	return c->where;
}

/* Seconds on the monotonic clock. */
static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* State of one request. */
struct req {
	struct profdb__ch *c;
	ch_sink_fn sink;           /* where a 200 response goes */
	void *arg;
	struct profdb_err *err;
	long status;               /* HTTP status, read at the first chunk */
	struct profdb__ch_buf errbody;     /* the body of a non-200 answer (bounded) */
	int sink_failed;           /* the sink said stop (err set by it) */
	int held;                  /* the caller keeps the answer: bounded by PROFDB__CH_HELD_MAX */
	size_t got;                /* bytes of the 200 body so far */
	int too_big;               /* held and past the bound */
	int framed;                /* the final response has a Content-Length or is chunked */
	double last;               /* when the server last sent or took a byte (now_s) */
	curl_off_t dl_seen, ul_seen; /* the byte counts at last */
	int timed_out;             /* nothing moved for c->timeout_s */
};

static size_t on_data(char *p, size_t size, size_t nmemb, void *arg)
{
	struct req *r = arg;
	size_t n = size * nmemb;
	if (r->status == 0)
		curl_easy_getinfo(r->c->curl, CURLINFO_RESPONSE_CODE, &r->status);
	if (r->status != 200) {
		if (r->errbody.len < 4096 && profdb__ch_buf_add(&r->errbody, p, n) != 0)
			return 0;
		return n;
	}
	r->got += n;
	if (r->held && r->got > PROFDB__CH_HELD_MAX) {
		r->too_big = 1;
		return 0;
	}
	if (r->sink && r->sink(r->arg, p, n) != 0) {
		r->sink_failed = 1;
		return 0;
	}
	r->last = now_s(); /* the sink's own time is not the server's silence */
	return n;
}

/* A body's end is known only from a Content-Length or chunked framing:
 * without either it ends where the connection does, so a connection cut
 * after the headers would read as a complete empty answer.  Each status
 * line starts a response (a "100 Continue" comes before the real one). */
static size_t on_header(char *p, size_t size, size_t nitems, void *arg)
{
	struct req *r = arg;
	size_t n = size * nitems;
	r->last = now_s();
	if (n >= 5 && strncmp(p, "HTTP/", 5) == 0)
		r->framed = 0;
	else if (n >= 15 && strncasecmp(p, "Content-Length:", 15) == 0)
		r->framed = 1;
	else if (n >= 18 && strncasecmp(p, "Transfer-Encoding:", 18) == 0)
		for (size_t i = 18; i + 7 <= n; i++)
			r->framed |= strncasecmp(p + i, "chunked", 7) == 0;
	return n;
}

/* The idle-read timeout: curl calls this at least once a second, moving
 * or not.  Any byte sent or received restarts the clock. */
static int on_progress(void *arg, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow)
{
	struct req *r = arg;
	double t = now_s();
	(void)dltotal;
	(void)ultotal;
	if (dlnow != r->dl_seen || ulnow != r->ul_seen) {
		r->dl_seen = dlnow;
		r->ul_seen = ulnow;
		r->last = t;
	}
	if (t - r->last <= r->c->timeout_s)
		return 0;
	r->timed_out = 1;
	return 1;
}

/* "Code: 193, e.displayText() = DB::Exception: Wrong password ..., e.what() =
 * DB::Exception" -> "Wrong password ... (code 193)"; other text: its first line. */
static int server_error(struct req *r)
{
	const char *b = r->errbody.data ? r->errbody.data : "";
	const char *t = strstr(b, "e.displayText() = ");
	const char *code = strncmp(b, "Code: ", 6) == 0 ? b + 6 : NULL;
	if (t) {
		t += 18;
		if (strncmp(t, "DB::Exception: ", 15) == 0)
			t += 15;
		const char *end = strstr(t, ", e.what() = ");
		size_t n = end ? (size_t)(end - t) : strlen(t);
		char msg[304];
		snprintf(msg, sizeof msg, "%.*s", (int)(n > 300 ? 300 : n), t);
		for (char *m = msg; *m; m++) /* one line: syntax errors quote the query */
			if (*m == '\n' || *m == '\r')
				*m = ' ';
		return profdb__err_set(r->err, PROFDB_ERROR, "clickhouse %s: %s (code %d)",
		    r->c->where, msg, code ? (int)strtol(code, NULL, 10) : 0);
	}
	size_t n = strcspn(b, "\r\n");
	return profdb__err_set(r->err, PROFDB_ERROR, "clickhouse %s: HTTP %ld%s%.*s", r->c->where,
	    r->status, n ? ": " : "", (int)(n > 300 ? 300 : n), b);
}

/* The request URL: http://[user@]host:port/?database=...&query=...; the
 * user goes in the URL only when netrc is to supply its password (curl
 * looks the login up then; with CURLOPT_USERNAME it does not). */
static char *request_url(struct profdb__ch *c, const char *sql, const char *settings, int use_db)
{
	struct profdb__ch_buf u = { 0 };
	char *q = sql ? curl_easy_escape(c->curl, sql, 0) : NULL;
	char *user = c->user && !c->password ? curl_easy_escape(c->curl, c->user, 0) : NULL;
	int bad = (sql && !q) || (c->user && !c->password && !user) ||
	          profdb__ch_buf_add(&u, c->base, strlen(c->base)) != 0;
	if (user && !bad)
		bad = profdb__ch_buf_add(&u, user, strlen(user)) != 0 || profdb__ch_buf_add(&u, "@", 1) != 0;
	bad = bad || profdb__ch_buf_add(&u, c->hostport, strlen(c->hostport)) != 0;
	curl_free(user);
	/* wait_end_of_query: the server buffers the answer, so an error met
	 * while it runs comes as an error status, not in the middle of a 200 */
	bad = bad || profdb__ch_buf_add(&u, "?wait_end_of_query=1", 20) != 0;
	/* readonly=2, not 1: the other URL settings still apply; the server
	 * then refuses every statement that would change it */
	if (c->readonly && !c->readonly_server && !bad)
		bad = profdb__ch_buf_add(&u, "&readonly=2", 11) != 0;
	if (use_db && !bad)
		bad = profdb__ch_buf_add(&u, "&database=", 10) != 0 ||
		      profdb__ch_buf_add(&u, c->database, strlen(c->database)) != 0;
	if (settings && !bad)
		bad = profdb__ch_buf_add(&u, "&", 1) != 0 || profdb__ch_buf_add(&u, settings, strlen(settings)) != 0;
	if (q && !bad)
		bad = profdb__ch_buf_add(&u, "&query=", 7) != 0 || profdb__ch_buf_add(&u, q, strlen(q)) != 0;
	curl_free(q);
	if (bad) {
		profdb__ch_buf_free(&u);
		return NULL;
	}
	return u.data;
}

static void set_auth(struct profdb__ch *c)
{
	if (c->password) /* the server's own default user when none is named */
		curl_easy_setopt(c->curl, CURLOPT_USERNAME, c->user ? c->user : "default");
	if (c->password)
		curl_easy_setopt(c->curl, CURLOPT_PASSWORD, c->password);
	if (!c->password) {
		curl_easy_setopt(c->curl, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
		if (c->netrc)
			curl_easy_setopt(c->curl, CURLOPT_NETRC_FILE, c->netrc);
	}
}

/* clickhouses://: the server's certificate is checked (host and chain)
 * against the system's CAs, or only the PEM file(s) the remote settings'
 * cainfo names (a private CA or a self-signed server certificate). */
static void set_tls(struct profdb__ch *c)
{
	if (c->cainfo)
		curl_easy_setopt(c->curl, CURLOPT_CAINFO, c->cainfo);
}

/* Everything a request may carry; send() is the one place curl is driven. */
struct send_args {
	const char *sql;           /* in the URL when there is a body, else the body */
	const void *data;          /* a body in memory, or NULL */
	size_t ndata;
	ch_read_fn read;           /* or a body produced on the fly (chunked), or NULL */
	void *read_arg;
	int use_db;
	const char *settings;      /* URL parameters, or NULL */
	int held;                  /* the caller keeps the whole answer (bounded) */
	int probe;                 /* server_readonly's own request */
};

/* What a streamed upload callback gives curl. */
struct upload {
	ch_read_fn read;
	void *arg;
	int failed;                /* read said stop (its err is set) */
	double *last;              /* the request's clock (struct req) */
};

static size_t on_read(char *buf, size_t size, size_t nitems, void *arg)
{
	struct upload *u = arg;
	long n = u->read(u->arg, buf, size * nitems);
	if (n < 0) {
		u->failed = 1;
		return CURL_READFUNC_ABORT;
	}
	*u->last = now_s(); /* reading the rows is not the server's silence */
	return (size_t)n;
}

/* The options of one request on c's (reset) curl handle. */
static void set_options(struct profdb__ch *c, const struct send_args *a, const char *url, struct req *r,
                        struct upload *up, char *curlerr)
{
	curl_easy_reset(c->curl);
	curl_easy_setopt(c->curl, CURLOPT_URL, url);
	curl_easy_setopt(c->curl, CURLOPT_POST, 1L);
	if (a->read) {
		curl_easy_setopt(c->curl, CURLOPT_READFUNCTION, on_read);
		curl_easy_setopt(c->curl, CURLOPT_READDATA, up);
		/* 1 MiB chunks instead of curl's 64 KiB: 16 times fewer read
		 * callbacks, sends and chunk headers; memory stays bounded */
		curl_easy_setopt(c->curl, CURLOPT_UPLOAD_BUFFERSIZE, 1L << 20);
	} else {
		curl_easy_setopt(c->curl, CURLOPT_POSTFIELDS, a->data ? (const char *)a->data : a->sql);
		curl_easy_setopt(c->curl, CURLOPT_POSTFIELDSIZE_LARGE,
		    (curl_off_t)(a->data ? a->ndata : strlen(a->sql)));
	}
	curl_easy_setopt(c->curl, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c->curl, CURLOPT_WRITEDATA, r);
	curl_easy_setopt(c->curl, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(c->curl, CURLOPT_HEADERDATA, r);
	curl_easy_setopt(c->curl, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(c->curl, CURLOPT_XFERINFODATA, r);
	curl_easy_setopt(c->curl, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(c->curl, CURLOPT_ERRORBUFFER, curlerr);
	curl_easy_setopt(c->curl, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(c->curl, CURLOPT_NOSIGNAL, 1L);
	set_auth(c);
	set_tls(c);
}

/* What a finished request amounts to: OK only for a 200 whose body
 * arrived whole (framed, and curl saw its end). */
static int outcome(struct req *r, struct upload *up, CURLcode rc, const char *curlerr)
{
	struct profdb__ch *c = r->c;
	struct profdb_err *err = r->err;
	if (r->sink_failed || up->failed)
		return err->code ? err->code : profdb__err_set(err, PROFDB_ERROR, "out of memory");
	if (r->timed_out)
		return profdb__err_set(err, PROFDB_ERROR, "clickhouse %s: nothing received for %d s "
		    "(the idle timeout)", c->where, c->timeout_s);
	if (r->too_big)
		return profdb__err_set(err, PROFDB_ERROR, "clickhouse %s: the answer is over %d MiB "
		    "(the bound on an answer held in memory)", c->where, (int)(PROFDB__CH_HELD_MAX >> 20));
	if (rc == CURLE_OK && r->status != 200)
		return server_error(r);
	if (rc == CURLE_OK && !r->framed)
		return profdb__err_set(err, PROFDB_ERROR, "clickhouse %s: the answer has no length and "
		    "is not chunked, so it may be cut short (%zu bytes came)", c->where, r->got);
	if (rc != CURLE_OK && r->status == 200)
		return profdb__err_set(err, PROFDB_ERROR, "clickhouse %s: the answer was cut short after "
		    "%zu bytes (%s)", c->where, r->got, curlerr[0] ? curlerr : curl_easy_strerror(rc));
	if (rc != CURLE_OK)
		return profdb__err_set(err, PROFDB_ERROR, "clickhouse %s: %s%s", c->where,
		    curlerr[0] ? curlerr : curl_easy_strerror(rc),
		    rc == CURLE_PEER_FAILED_VERIFICATION ?
		    " (trust the server's CA with PROFDB_CLICKHOUSE_CAINFO=FILE.pem)" : "");
	return PROFDB_OK;
}

/* The server's words when readonly may not be set: "Cannot override
 * setting (readonly) in readonly mode" for a URL setting, "Cannot modify
 * 'readonly' setting in readonly mode" for a SETTINGS clause. */
static int ro_refused(const char *text)
{
	return text && strstr(text, "in readonly mode") &&
	       (strstr(text, "setting (readonly)") || strstr(text, "'readonly' setting"));
}

static int send_req(struct profdb__ch *c, const struct send_args *a, ch_sink_fn sink, void *arg,
                    struct profdb_err *err);

/* A user the server makes read-only already may not set readonly: its
 * own setting is at least as strict, so the request may go without it.
 * The refusal is that only when a bare SELECT 1 meets it too (the
 * statement itself may try to set readonly). */
static int server_readonly(struct profdb__ch *c, const struct req *r, const struct send_args *a)
{
	struct send_args probe = { "SELECT 1", NULL, 0, NULL, NULL, 0, NULL, 1, 1 };
	struct profdb_err e = { PROFDB_OK, "" };
	if (!c->readonly || c->readonly_server || a->probe || a->read || r->status == 200 ||
	    !ro_refused(r->errbody.data))
		return 0;
	return send_req(c, &probe, NULL, NULL, &e) != PROFDB_OK && ro_refused(e.msg);
}

static int send_req(struct profdb__ch *c, const struct send_args *a, ch_sink_fn sink, void *arg,
                    struct profdb_err *err)
{
	struct req r = { c, sink, arg, err, 0, { 0 }, 0, a->held, 0, 0, 0, now_s(), 0, 0, 0 };
	struct upload up = { a->read, a->read_arg, 0, &r.last };
	int body = a->data || a->read;
	char *url = request_url(c, body ? a->sql : NULL, a->settings, a->use_db);
	char curlerr[CURL_ERROR_SIZE] = "";
	if (!url)
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	set_options(c, a, url, &r, &up, curlerr);
	CURLcode rc = curl_easy_perform(c->curl);
	free(url);
	if (r.status == 0)
		curl_easy_getinfo(c->curl, CURLINFO_RESPONSE_CODE, &r.status);
	if (rc == CURLE_OK && server_readonly(c, &r, a)) {
		profdb__ch_buf_free(&r.errbody);
		c->readonly_server = 1;
		return send_req(c, a, sink, arg, err);
	}
	int ret = outcome(&r, &up, rc, curlerr);
	profdb__ch_buf_free(&r.errbody);
	return ret;
}

int profdb__ch_send(struct profdb__ch *c, const char *sql, const void *data, size_t ndata,
                    int use_db, ch_sink_fn sink, void *arg, struct profdb_err *err)
{
	struct send_args a = { sql, data, ndata, NULL, NULL, use_db, NULL, 0, 0 };
	return send_req(c, &a, sink, arg, err);
}

int profdb__ch_send_held(struct profdb__ch *c, const char *sql, ch_sink_fn sink, void *arg,
                         struct profdb_err *err)
{
	struct send_args a = { sql, NULL, 0, NULL, NULL, 1, NULL, 1, 0 };
	return send_req(c, &a, sink, arg, err);
}

int profdb__ch_upload(struct profdb__ch *c, const char *sql, const char *settings, ch_read_fn read, void *arg,
                      struct profdb_err *err)
{
	struct send_args a = { sql, NULL, 0, read, arg, 1, settings, 0, 0 };
	return send_req(c, &a, NULL, NULL, err);
}

static int collect(void *arg, const char *p, size_t n)
{
	return profdb__ch_buf_add(arg, p, n);
}

int profdb__ch_query(struct profdb__ch *c, const char *sql, struct profdb__ch_buf *resp,
                     struct profdb_err *err)
{
	struct send_args a = { sql, NULL, 0, NULL, NULL, 1, NULL, 1, 0 };
	int rc = send_req(c, &a, resp ? collect : NULL, resp, err);
	if (rc == PROFDB_OK && err->code == PROFDB_OK && resp && !resp->data &&
	    profdb__ch_buf_add(resp, "", 0) != 0)
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	return rc;
}
