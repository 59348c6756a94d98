//! Which bot process this is, for the leases on shared work (issue 41). Processes sharing a
//! PostgreSQL database each send outbox rows and fire timers; before sending or firing one, a
//! process claims it for a while (its lease), and the others leave it alone until the lease
//! lapses. A process that dies holding leases holds up its rows for one lease at most.
//!
//! On an SQLite file one process runs (the file's lock, store/lock.rs): it is the only worker,
//! and takes no claims at all (each would cost a write, and decide nothing).

use std::time::Duration;

use crate::store::Lease;

/// A lease unless the bot is told otherwise (`WORK_LEASE_SECS`): longer than any one send
/// or firing takes (a board post with its picture, a bot's move thought out), short enough
/// that a dead process's work resumes within the minute.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);

/// This process, as it signs its claims.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worker {
    name: String,
    lease_ms: i64,
}

/// The one worker of an SQLite file.
const FILE_WORKER: &str = "local";

impl Worker {
    /// The worker of a process on a database it may share with others (`shared`: a server),
    /// or the one worker of a file.
    pub fn new(shared: bool) -> Worker {
        let name = if shared {
            process_name()
        } else {
            FILE_WORKER.to_string()
        };
        Worker {
            name,
            lease_ms: DEFAULT_LEASE.as_millis() as i64,
        }
    }

    /// The same worker with leases of `lease` (at least a millisecond).
    pub fn with_lease(mut self, lease: Duration) -> Worker {
        self.lease_ms = (lease.as_millis() as i64).max(1);
        self
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether other processes may share the work: alone on a file, the claims would only
    /// cost a write each (a flush, on a durable file) and decide nothing.
    pub fn shares(&self) -> bool {
        self.name != FILE_WORKER
    }

    pub fn lease_ms(&self) -> i64 {
        self.lease_ms
    }

    /// A claim taken at `now`.
    pub fn lease(&self, now: i64) -> Lease<'_> {
        Lease {
            holder: &self.name,
            now,
            until: now.saturating_add(self.lease_ms),
        }
    }
}

/// A name no other process has: the host, the process id, and when it started (a process id
/// is reused after a restart; the start time tells the two apart).
fn process_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "host".into());
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("{host}/{}/{started:x}", std::process::id())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_has_one_worker_and_a_server_one_per_process() {
        assert_eq!(Worker::new(false), Worker::new(false));
        let (a, b) = (Worker::new(true), Worker::new(true));
        assert_ne!(
            a.name(),
            b.name(),
            "two services of one process are two workers"
        );
        assert!(a.name().contains(&std::process::id().to_string()));
    }

    #[test]
    fn a_lease_runs_from_now() {
        let worker = Worker::new(false).with_lease(Duration::from_secs(5));
        let lease = worker.lease(1_000);
        assert_eq!(
            (lease.holder, lease.now, lease.until),
            ("local", 1_000, 6_000)
        );
        assert_eq!(Worker::new(false).with_lease(Duration::ZERO).lease_ms(), 1);
    }
}
