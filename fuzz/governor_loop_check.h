// Moved: the governor_fuzz layout and driver are fuzz/governor_input.h (issue 13).
#include "fuzz/governor_input.h"
