/* lib/ss_provenance.h — the provenance and run-length objects shared by runs and sweep records (internal). */
#ifndef SIMSCHED_INTERNAL_PROVENANCE_H
#define SIMSCHED_INTERNAL_PROVENANCE_H

#include <cjson/cJSON.h>

#include "simsched/provenance.h"

/** The "provenance" object of a result (docs/output.md). The caller owns it (cJSON_Delete). */
cJSON *ss_provenance_json(const struct ss_provenance *p, const struct ss_run_config *cfg);

struct ss_results;
/** The "run_length" object of a result (docs/output.md "Run length"), for r->run_length.on only. The caller owns it. */
cJSON *ss_run_length_json(const struct ss_results *r);

#endif
