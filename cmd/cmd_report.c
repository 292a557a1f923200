/*
 * cmd_report.c - profdb report: the comparison of 'profdb diff' written as
 * one document (md, html, json, junit, csv).  Options and method are
 * shared with diff (cmd_diff.c).
 */
#include "cmd.h"

int cmd_report(int argc, char **argv)
{
	return cmd_diff_main(argc, argv, 1);
}
