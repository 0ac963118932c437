// Entry point of the loadable extension (filled in by the virtual-table work).
