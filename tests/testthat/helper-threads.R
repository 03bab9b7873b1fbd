# The tests ask for several threads (results must not depend on them) also on
# machines with fewer cores; ExoLabel() would otherwise cap `threads` at the
# cores with a warning (test-memory.R checks that cap with this option unset).
options(ExoLabel.oversubscribe = TRUE)
