#include "simsched/error.h"

G_DEFINE_QUARK(simsched-error-quark, ss_error)
