//! The CPU time the calling thread has used so far.
//!
//! The arena times a bot's decision by the wall clock, which also counts the time the machine
//! gave to other work meanwhile (the other game of a two-thread run, a build, the desktop). A
//! decision's CPU time counts only the bot's own work, so the two together tell a level that is
//! slow from a machine that was busy.

use std::time::Duration;

/// The calling thread's CPU time so far; nothing where the platform has no such clock.
#[cfg(target_os = "linux")]
pub fn now() -> Option<Duration> {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through the pointer, which points at `time`.
    let done = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) };
    let secs = u64::try_from(time.tv_sec).ok()?;
    let nanos = u32::try_from(time.tv_nsec).ok()?;
    (done == 0).then(|| Duration::new(secs, nanos))
}

#[cfg(not(target_os = "linux"))]
pub fn now() -> Option<Duration> {
    None
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use std::time::Instant;

    use super::*;

    /// Work on this thread counts, and a sleep does not: the clock is the thread's own.
    #[test]
    fn counts_work_and_not_sleep() {
        let before = now().unwrap();
        std::thread::sleep(Duration::from_millis(30));
        let slept = now().unwrap() - before;
        assert!(slept < Duration::from_millis(15), "{slept:?}");

        // Busy work advances the clock: 5 ms of it come within a few seconds, however
        // loaded the machine is.
        let before = now().unwrap();
        let began = Instant::now();
        let mut x = 1u64;
        while now().unwrap() - before < Duration::from_millis(5) {
            assert!(
                began.elapsed() < Duration::from_secs(20),
                "the clock stands still"
            );
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
}
