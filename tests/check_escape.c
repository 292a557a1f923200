/*
 * check_escape.c - the markup escaper (escape.c) the JUnit and HTML reports
 * share.  Expected strings are written by hand from the XML 1.0 rules:
 * five entities, U+FFFD (EF BF BD) for each byte that starts no valid UTF-8
 * sequence, '?' for the control bytes XML cannot carry; and RFC 4180 for
 * the CSV field quoting.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "report/escape.h"

/* fn(s) written to a string (static buffer). */
static const char *run(void (*fn)(FILE *, const char *), const char *s)
{
	static char buf[512];
	FILE *f;
	memset(buf, 0, sizeof buf); /* fmemopen writes no NUL when nothing is written */
	f = fmemopen(buf, sizeof buf, "w");
	ck_assert_ptr_nonnull(f);
	fn(f, s);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

static const char *xml(const char *s) { return run(profdb__xml_text, s); }
static const char *csv(const char *s) { return run(profdb__csv_field, s); }

START_TEST(entities)
{
	ck_assert_str_eq(xml("<>&\"'"), "&lt;&gt;&amp;&quot;&#39;");
	ck_assert_str_eq(xml("a<b> && c"), "a&lt;b&gt; &amp;&amp; c");
	ck_assert_str_eq(xml("void f<float>(\"x\")"), "void f&lt;float&gt;(&quot;x&quot;)");
	/* an entity already in the text is escaped again: it is text */
	ck_assert_str_eq(xml("&amp;"), "&amp;amp;");
	ck_assert_str_eq(xml(""), "");
	ck_assert_str_eq(xml("plain_kernel_name 123"), "plain_kernel_name 123");
}
END_TEST

START_TEST(invalid_utf8)
{
	/* valid multi-byte text passes untouched: "µs", "→", U+1F600 */
	ck_assert_str_eq(xml("\xc2\xb5s \xe2\x86\x92 \xf0\x9f\x98\x80"),
	                 "\xc2\xb5s \xe2\x86\x92 \xf0\x9f\x98\x80");
	/* a lone 0xff, a lone continuation byte, a cut-short sequence */
	ck_assert_str_eq(xml("a\xff" "b"), "a\xef\xbf\xbd" "b");
	ck_assert_str_eq(xml("\x80"), "\xef\xbf\xbd");
	ck_assert_str_eq(xml("x\xe2\x86"), "x\xef\xbf\xbd\xef\xbf\xbd");
	/* overlong '<' (C0 BC) is not a '<': two replacements, no entity */
	ck_assert_str_eq(xml("\xc0\xbc"), "\xef\xbf\xbd\xef\xbf\xbd");
	/* a UTF-16 surrogate (ED A0 80) is invalid UTF-8: one per byte */
	ck_assert_str_eq(xml("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	/* replacement and entities together */
	ck_assert_str_eq(xml("<\xfe>"), "&lt;\xef\xbf\xbd&gt;");
}
END_TEST

START_TEST(control_bytes)
{
	/* tab, LF and CR are allowed in XML 1.0; the other C0 bytes are not */
	ck_assert_str_eq(xml("a\tb\nc\rd"), "a\tb\nc\rd");
	ck_assert_str_eq(xml("\x01\x08\x0b\x0c\x1b\x1f"), "??????");
	ck_assert_str_eq(xml("k\x1b[0m"), "k?[0m");
	/* DEL (0x7f) is allowed text in XML 1.0 */
	ck_assert_str_eq(xml("\x7f"), "\x7f");
}
END_TEST

START_TEST(csv_fields)
{
	ck_assert_str_eq(csv("plain"), "plain");
	ck_assert_str_eq(csv(""), "");
	ck_assert_str_eq(csv("a,b"), "\"a,b\"");
	ck_assert_str_eq(csv("say \"hi\""), "\"say \"\"hi\"\"\"");
	ck_assert_str_eq(csv("two\nlines"), "\"two\nlines\"");
	ck_assert_str_eq(csv("cr\r"), "\"cr\r\"");
	/* an edge space is kept by quoting; an inner one needs nothing */
	ck_assert_str_eq(csv(" lead"), "\" lead\"");
	ck_assert_str_eq(csv("trail "), "\"trail \"");
	ck_assert_str_eq(csv("in side"), "in side");
	/* markup characters are plain text in CSV */
	ck_assert_str_eq(csv("f<float>&'x'"), "f<float>&'x'");
	/* invalid UTF-8 as U+FFFD, then quoted as needed */
	ck_assert_str_eq(csv("k\xff"), "k\xef\xbf\xbd");
	ck_assert_str_eq(csv("\xff,"), "\"\xef\xbf\xbd,\"");
}
END_TEST

static const char *term(const char *s) { return run(profdb_text_write, s); }

/* profdb_text_write, written by hand from the rules in profdb.h: C0 and DEL
 * as C escapes, C1 and bidi controls (U+202E RIGHT-TO-LEFT OVERRIDE is E2 80
 * AE; U+0085 is C2 85; U+2067 is E2 81 A7) as \uXXXX, a stray byte as \xNN,
 * every other character as it is (U+00E9 C3 A9, U+2014 E2 80 94). */
START_TEST(terminal_text)
{
	ck_assert_str_eq(term("plain name"), "plain name");
	ck_assert_str_eq(term("e\033[31mred"), "e\\x1b[31mred");
	ck_assert_str_eq(term("a\nb\rc\td\x7f"), "a\\nb\\rc\\td\\x7f");
	ck_assert_str_eq(term("x\xe2\x80\xaey"), "x\\u202ey");
	ck_assert_str_eq(term("\xc2\x85\xe2\x81\xa7"), "\\u0085\\u2067");
	ck_assert_str_eq(term("caf\xc3\xa9 \xe2\x80\x94"), "caf\xc3\xa9 \xe2\x80\x94");
	ck_assert_str_eq(term("bad\xff"), "bad\\xff");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("escape");
	TCase *tc = tcase_create("xml_text");
	tcase_add_test(tc, entities);
	tcase_add_test(tc, invalid_utf8);
	tcase_add_test(tc, control_bytes);
	suite_add_tcase(s, tc);
	tc = tcase_create("csv_field");
	tcase_add_test(tc, csv_fields);
	suite_add_tcase(s, tc);
	tc = tcase_create("text_write");
	tcase_add_test(tc, terminal_text);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
