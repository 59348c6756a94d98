//! The vendored OpenAPI spec: the fake reads `tests/support/discord-api-spec/`, which must stay
//! an exact copy of the shared one beside the project when that exists.

use std::path::PathBuf;

use crate::fake_discord::vendored_spec_dir;

#[test]
fn the_vendored_spec_is_an_exact_copy_of_the_shared_one() {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/discord-api-spec");
    for name in ["openapi.json", "LICENSE", "README.md"] {
        let vendored = std::fs::read(vendored_spec_dir().join(name))
            .unwrap_or_else(|e| panic!("vendored {name}: {e}"));
        // A clone of the project alone has no ../shared: nothing to compare with.
        let Ok(original) = std::fs::read(shared.join(name)) else {
            continue;
        };
        // Not assert_eq!: a 1 MB diff of bytes helps nobody.
        assert!(
            vendored == original,
            "tests/support/discord-api-spec/{name} differs from ../shared/discord-api-spec/{name}; \
             copy the shared file over the vendored one"
        );
    }
}
