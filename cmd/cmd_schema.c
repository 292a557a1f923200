/*
 * cmd_schema.c - profdb schema: print the embedded SQL schema, so users can
 * see every table and view without opening the source.
 */
#include <stdio.h>

#include "cmd.h"

static const struct cli_opt opts[] = {
	{ "help", 0, 'h', "", "show this help" },
	{ NULL, 0, 0, NULL, NULL }
};

int cmd_schema(int argc, char **argv)
{
	const char *arg;
	int key, first = 1;
	while ((key = cli_next(argc, argv, opts, &arg, &first)) != -1) {
		if (key == 'h') {
			cli_help(stdout, "schema", "", "Print the SQL schema profdb databases use "
			         "(tables, indexes, views).", opts);
			return PROFDB_EXIT_OK;
		}
		return cli_usage_error("schema", "bad option");
	}
	if (first < argc)
		return cli_usage_error("schema", "takes no arguments");
	fputs(profdb_schema_sql(), stdout);
	return PROFDB_EXIT_OK;
}
