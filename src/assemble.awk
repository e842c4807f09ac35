# src/assemble.awk: one edition's SQL script from the sources by concern.
#
#   awk -f src/assemble.awk -v edition=c|sql SOURCE.sql ...
#       prints the sources in the order given, for that edition
#   awk -f src/assemble.awk -v edition=c|sql -v template=T SOURCE.sql ...
#       prints the template T, each line "--#object NAME" replaced by the
#       stanza of the object NAME from the sources (the comment right above
#       its CREATE, the CREATE and its COMMENT ON; one for each overload; or
#       of the block DO $NAME$), "--#object NAME replace" with CREATE OR
#       REPLACE
#
# In a source, the lines between "--#if c" (or "--#if sql") and "--#endif"
# belong to that edition only; "--#else" starts the other edition's lines.
# A reader finds both editions of an object in one place, and no object is
# written twice.

function keep_line(line)
{
	if (line ~ /^--#if /)
	{
		split(line, word, " ");
		if (word[2] != "c" && word[2] != "sql")
			fail("unknown edition in \"" line "\"");
		active = (word[2] == edition);
		return 0;
	}
	if (line ~ /^--#else/)
	{
		active = !active;
		return 0;
	}
	if (line ~ /^--#endif/)
	{
		active = 1;
		return 0;
	}
	return active;
}

function fail(message)
{
	printf "%s:%d: %s\n", FILENAME, FNR, message > "/dev/stderr";
	failed = 1;
	exit 1;
}

# Print the stanzas of an object (each of its overloads), CREATE made CREATE
# OR REPLACE if asked.
function print_stanza(name, replace,		i, first, last, start, text, found)
{
	for (start = 1; start <= n; start++)
	{
		if (line[start] !~ ("^CREATE (FUNCTION|PROCEDURE|AGGREGATE|DOMAIN) " name "[ (]") &&
			line[start] != ("DO $" name "$"))
			continue;
		if (found++)
			print "";
		for (first = start; first > 1 && line[first - 1] ~ /^--/; first--)
			;
		if (line[start] ~ /^DO /)
			for (last = start; last <= n && line[last] != ("$" name "$;"); last++)
				;
		else
		{
			for (last = start; last <= n && line[last] !~ ("^COMMENT ON [A-Z]+ " name "[ (]"); last++)
				;
			while (last <= n && line[last] !~ /;$/)
				last++;
		}
		for (i = first; i <= last; i++)
		{
			text = line[i];
			if (i == start && replace)
				sub(/^CREATE /, "CREATE OR REPLACE ", text);
			print text;
		}
		start = last;
	}
	if (!found)
	{
		printf "%s: no object %s in the sources\n", template, name > "/dev/stderr";
		failed = 1;
		exit 1;
	}
}

BEGIN {
	if (edition != "c" && edition != "sql")
	{
		print "assemble.awk: edition must be c or sql" > "/dev/stderr";
		exit 1;
	}
	active = 1;
}

FNR == 1 && NR > 1 && !active { fail("--#if without --#endif before " FILENAME); }

# a blank line between sources
FNR == 1 && NR > 1 {
	if (template == "")
		print "";
	else
		line[++n] = "";
}

keep_line($0) {
	if (template == "")
		print;
	else
		line[++n] = $0;
}

END {
	if (failed)
		exit 1;
	if (!active)
		fail("--#if without --#endif");
	if (template == "")
		exit 0;
	active = 1;
	while ((getline t < template) > 0)
	{
		if (!keep_line(t))
			continue;
		if (t ~ /^--#object /)
		{
			split(t, word, " ");
			print_stanza(word[2], word[3] == "replace");
		}
		else
			print t;
	}
}
