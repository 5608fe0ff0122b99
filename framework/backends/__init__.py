"""Framework backends: the CPU runtime (native-library bindings and thread teams)."""
