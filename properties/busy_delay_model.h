// Moved to oracle/busy_delay.h (issue 13); the alias serves bench/busy_delay_bench.cc until it names the oracle.
#include "oracle/busy_delay.h"
namespace idlespec::props { namespace bd_model = busy_delay::oracle; }
