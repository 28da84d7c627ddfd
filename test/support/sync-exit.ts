/** A module that ends the worker thread that imports it: the sync bridge must fail, not hang. */
process.exit(3);
