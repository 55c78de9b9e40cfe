#![no_main]

use libfuzzer_sys::fuzz_target;

// Routes an entry into the fuzzed file: every original byte must be kept (or
// the route refused with the file untouched), the reported line must be the
// item, and routing it a second time must add nothing (docs/FORMAT.md §9 idempotence).
fuzz_target!(|data: &[u8]| {
    fuzz_checks::check_route_idempotent(data);
});
