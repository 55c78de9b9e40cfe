#![no_main]

use active_status::render::isolated;
use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: {
        // The renderer's child is this program again.
        if std::env::args().nth(1).as_deref() == Some(isolated::CHILD_ARG) {
            std::process::exit(isolated::child_main());
        }
    },
    |data: &[u8]| {
        let exe = std::env::current_exe().expect("the fuzzer's own path");
        fuzz_checks::check_template(data, &exe);
    }
);
