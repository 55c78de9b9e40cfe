//! The shared `Vault` builder end to end: a vault it writes regenerates.

use crate::common::Vault;

#[test]
fn builder_vault_regenerates() {
    let v = Vault::new().project("wrap-cli").file(
        "journal/2026-05-06.md",
        "## Session: x (wrap-cli)\n### Next\n- [ ] add lock timeout\n",
    );
    assert_eq!(v.open_texts(), vec!["add lock timeout"]);
    v.cmd().arg("regen").assert().success();
    assert!(v.read("ACTIVE-STATUS.md").contains("add lock timeout"));
}
