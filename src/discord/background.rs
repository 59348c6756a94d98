//! Low-priority threads for the bot's heavy work: board pictures and timers (a bot thinking
//! out its move for a second or two).
//!
//! The bot must answer every interaction within three seconds, and players feel far less:
//! the first answer (a deferral) should leave within tens of milliseconds. On a small server
//! with two cores, a burst of moves means dozens of pictures to draw; on tokio's blocking pool
//! they would take the CPU in equal shares with the threads that answer. Here they run on
//! threads of their own at a lower scheduling priority (Linux `nice` 10), so they use every
//! idle cycle but give way the moment an interaction arrives.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

type Job = Box<dyn FnOnce() + Send>;

/// A pool of low-priority worker threads; they end when it is dropped.
pub struct Background {
    jobs: Mutex<mpsc::Sender<Job>>,
}

/// A job that did not finish: it panicked (the worker carries on), or the pool is gone.
#[derive(Debug, thiserror::Error)]
#[error("a background job did not finish (it panicked)")]
pub struct Unfinished;

/// How much lower than the process the workers run (Linux nice values, 0 to 19).
const NICENESS: i32 = 10;

impl Background {
    /// Starts `threads` workers (at least one).
    pub fn start(threads: usize) -> Background {
        let (sender, receiver) = mpsc::channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        for n in 0..threads.max(1) {
            let receiver = Arc::clone(&receiver);
            let spawned = std::thread::Builder::new()
                .name(format!("jackal-background-{n}"))
                .spawn(move || work(&receiver));
            if let Err(e) = spawned {
                tracing::warn!(error = %e, "could not start a background thread");
            }
        }
        Background {
            jobs: Mutex::new(sender),
        }
    }

    /// Runs `f` on a worker and waits for its result without blocking the async threads.
    pub async fn run<T, F>(&self, f: F) -> Result<T, Unfinished>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let (tell, told) = oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = tell.send(f());
        });
        let queued = self.jobs.lock().map_err(|_| Unfinished)?.send(job);
        queued.map_err(|_| Unfinished)?;
        told.await.map_err(|_| Unfinished)
    }
}

/// A worker's life: lower its priority, then run jobs until the pool is dropped.
fn work(receiver: &Mutex<mpsc::Receiver<Job>>) {
    lower_priority();
    loop {
        // The lock is held only while waiting for the next job, not while running it.
        let next = match receiver.lock() {
            Ok(receiver) => receiver.recv(),
            Err(_) => return,
        };
        let Ok(job) = next else { return };
        // A panicking job drops its result sender: its caller learns of it, the worker lives.
        if catch_unwind(AssertUnwindSafe(job)).is_err() {
            tracing::error!("a background job panicked");
        }
    }
}

#[cfg(target_os = "linux")]
fn lower_priority() {
    // SAFETY: setpriority only reads its integer arguments. On Linux, PRIO_PROCESS with
    // who = 0 names the calling thread alone, not the whole process.
    let done = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, NICENESS) };
    if done != 0 {
        tracing::debug!("could not lower a background thread's priority");
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {
    let _ = NICENESS;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn runs_jobs_and_survives_a_panic() {
        let pool = Background::start(1);
        assert_eq!(pool.run(|| 6 * 7).await.unwrap(), 42);
        let panicked = pool.run(|| -> u32 { panic!("a broken picture") }).await;
        assert!(panicked.is_err());
        // The same single worker is still there.
        assert_eq!(pool.run(|| "after").await.unwrap(), "after");
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn workers_run_at_a_lower_priority() {
        let pool = Background::start(1);
        // SAFETY: getpriority only reads its integer arguments (the calling thread here).
        let nice = pool
            .run(|| unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) })
            .await
            .unwrap();
        let mine = unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        assert_eq!(nice, (mine + NICENESS).min(19));
    }
}
