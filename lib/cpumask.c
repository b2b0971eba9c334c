/* Parsing and printing of cpulists ("0-3,8"), the format of
 * /sys/devices/system/cpu/online and of numactl -C. */
#include "simsched/cpumask.h"

#include <stdio.h>
#include <stdlib.h>

int ss_cpumask_parse_list(const char *s, uint64_t *m, unsigned nr_cpus, unsigned *bad_offset)
{
	const char *p = s;
	ss_cpumask_zero(m, ss_cpumask_words(nr_cpus));
	while (*p == ' ')
		p++;
	if (!*p)
		goto bad;
	while (*p) {
		char *end;
		if (*p < '0' || *p > '9')
			goto bad;
		unsigned long a = strtoul(p, &end, 10), b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				goto bad;
			b = strtoul(p, &end, 10);
			p = end;
		}
		if (a > b || b >= nr_cpus) {
			p = end;
			goto bad;
		}
		for (unsigned long c = a; c <= b; c++)
			ss_cpumask_set(m, (unsigned)c);
		while (*p == ' ')
			p++;
		if (*p == ',') {
			p++;
			if (!*p)
				goto bad;
		} else if (*p) {
			goto bad;
		}
	}
	return 0;
bad:
	if (bad_offset)
		*bad_offset = (unsigned)(p - s);
	return -1;
}

char *ss_cpumask_format_list(const uint64_t *m, unsigned nr_cpus, char *buf, unsigned len)
{
	unsigned pos = 0;
	buf[0] = '\0';
	for (unsigned c = ss_cpumask_first(m, nr_cpus); c < nr_cpus;) {
		unsigned e = c;
		while (e + 1 < nr_cpus && ss_cpumask_test(m, e + 1))
			e++;
		char tmp[32];
		int n = e == c ? snprintf(tmp, sizeof tmp, "%s%u", pos ? "," : "", c)
			       : snprintf(tmp, sizeof tmp, "%s%u-%u", pos ? "," : "", c, e);
		if (pos + (unsigned)n + 4 > len) {
			if (len >= 4)
				snprintf(buf + (pos + 4 > len ? len - 4 : pos), 4, "...");
			return buf;
		}
		memcpy(buf + pos, tmp, (size_t)n + 1);
		pos += (unsigned)n;
		c = ss_cpumask_next(m, nr_cpus, e + 1);
	}
	return buf;
}
