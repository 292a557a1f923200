/*
 * check_escape.c - the markup escaper (escape.c) the JUnit and HTML reports
 * share.  Expected strings are written by hand from the XML 1.0 rules:
 * five entities, U+FFFD (EF BF BD) for each byte that starts no valid UTF-8
 * sequence, '?' for the control bytes XML cannot carry.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "escape.h"

/* profdb__xml_text(s) as a string (static buffer). */
static const char *xml(const char *s)
{
	static char buf[512];
	FILE *f;
	memset(buf, 0, sizeof buf); /* fmemopen writes no NUL when nothing is written */
	f = fmemopen(buf, sizeof buf, "w");
	ck_assert_ptr_nonnull(f);
	profdb__xml_text(f, s);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

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

int main(void)
{
	Suite *s = suite_create("escape");
	TCase *tc = tcase_create("xml_text");
	tcase_add_test(tc, entities);
	tcase_add_test(tc, invalid_utf8);
	tcase_add_test(tc, control_bytes);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
