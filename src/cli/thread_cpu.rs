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
    let mut time = std::mem::MaybeUninit::<libc::timespec>::uninit();
    // SAFETY: clock_gettime writes one whole timespec through the pointer, which points at
    // `time`, and returns 0 when it did; only then is `time` read.
    let done = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, time.as_mut_ptr()) };
    if done != 0 {
        return None;
    }
    // SAFETY: written by the call above, which succeeded.
    let time = unsafe { time.assume_init() };
    let secs = u64::try_from(time.tv_sec).ok()?;
    let nanos = u32::try_from(time.tv_nsec).ok()?;
    Some(Duration::new(secs, nanos))
}

#[cfg(not(target_os = "linux"))]
pub fn now() -> Option<Duration> {
    None
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use std::time::Instant;

    use super::*;

    /// Work on this thread counts, and a sleep does not, even while another thread of the
    /// process works: the clock is the thread's own, not the process's nor the wall's.
    #[test]
    fn counts_work_and_not_sleep() {
        let stop = std::sync::atomic::AtomicBool::new(false);
        let slept = std::thread::scope(|scope| {
            scope.spawn(|| busy_until(|| stop.load(std::sync::atomic::Ordering::Relaxed)));
            let before = now().unwrap();
            std::thread::sleep(Duration::from_millis(50));
            let slept = now().unwrap() - before;
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            slept
        });
        assert!(slept < Duration::from_millis(15), "{slept:?}");

        // Busy work advances the clock: 5 ms of it come within 20 s, however loaded the
        // machine is.
        let before = now().unwrap();
        let began = Instant::now();
        busy_until(|| {
            assert!(
                began.elapsed() < Duration::from_secs(20),
                "the clock stands still"
            );
            now().unwrap() - before >= Duration::from_millis(5)
        });
    }

    fn busy_until(mut done: impl FnMut() -> bool) {
        let mut x = 1u64;
        while !done() {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
}
