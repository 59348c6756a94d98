//! Leases on shared work: the outbox's rows and the timers, which any bot process sharing the
//! database may send or fire (issue 41). A process claims a row before it sends or fires it;
//! another process leaves a row alone while its lease runs, and takes it over once the lease
//! has passed (the process that claimed it died, or hangs).

/// Who claims, when, and until when: the same three values for every claim of one look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lease<'a> {
    /// The claiming process ([`crate::game::Worker`]'s name).
    pub holder: &'a str,
    /// Now, by the service's clock: a claim whose `claimed_until` is not after it has lapsed.
    pub now: i64,
    /// When this claim lapses.
    pub until: i64,
}

/// The SQL condition "this row may be claimed by `?H`, now being `?N`": unclaimed, claimed by
/// the same holder, or claimed by a lease that has lapsed. `H` and `N` are the parameters'
/// numbers in the statement it goes into.
macro_rules! claimable {
    ($holder:literal, $now:literal) => {
        concat!(
            "(claimed_by IS NULL OR claimed_by = ?",
            $holder,
            " OR claimed_until <= ?",
            $now,
            ")"
        )
    };
}
pub(super) use claimable;
