/*
 * Copyright 2026 The kubejobs Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package dev.kubejobs.core.internal;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread pools kubejobs starts itself: daemon threads, none started before the first task, each
 * ended after an idle period, by {@link ThreadPoolExecutor#shutdown()}, and waited for by {@link
 * #shutdownAndAwait}. Not a published API.
 */
public final class DaemonThreads {
  private static final Logger LOG = LoggerFactory.getLogger(DaemonThreads.class);

  private DaemonThreads() {}

  /**
   * Returns a pool of up to {@code threads} daemon threads.
   *
   * @param name the threads' name; with more than one thread, each gets {@code -<n>} appended
   * @param threads how many at most, at least 1
   * @param idle how long a thread waits for work before it ends
   * @return the pool, with an unbounded queue
   */
  public static Pool pool(String name, int threads, Duration idle) {
    return new Pool(name, threads, idle);
  }

  /**
   * Shuts the pools down (each runs what it queued), waits until their threads ended or {@code
   * timeout} passed, and then interrupts the threads still running and waits as long again. A pool
   * whose thread is the calling one (a listener that closes the instance) is shut down without
   * waiting for it.
   *
   * @param timeout the longest wait for the queued tasks to end
   * @param pools the pools, null ones ignored
   * @return whether every thread of the pools ended (or is the calling one)
   */
  public static boolean shutdownAndAwait(Duration timeout, Pool... pools) {
    for (Pool pool : pools) {
      if (pool != null) {
        pool.shutdown();
      }
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean ended = awaitUntil(deadline, pools);
    if (!ended) {
      for (Pool pool : pools) {
        if (pool != null && !pool.isTerminated() && !pool.runsCurrentThread()) {
          LOG.warn(
              "Thread(s) '{}' still ran {} after close; interrupting them", pool.name, timeout);
          pool.shutdownNow();
        }
      }
      ended = awaitUntil(System.nanoTime() + timeout.toNanos(), pools);
    }
    return ended;
  }

  private static boolean awaitUntil(long deadline, Pool... pools) {
    boolean ended = true;
    for (Pool pool : pools) {
      if (pool == null || pool.runsCurrentThread()) {
        continue;
      }
      try {
        long left = Math.max(0, deadline - System.nanoTime());
        ended &= pool.awaitTermination(left, TimeUnit.NANOSECONDS) && pool.joinThreads(deadline);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return ended;
  }

  /** A pool of daemon threads that knows its own threads. */
  public static final class Pool extends ThreadPoolExecutor {
    private final String name;
    private final ThreadLocal<Pool> owner = new ThreadLocal<>();

    private Pool(String name, int threads, Duration idle) {
      super(
          threads,
          threads,
          idle.toMillis(),
          TimeUnit.MILLISECONDS,
          new LinkedBlockingQueue<>(),
          new Factory(name, threads));
      this.name = name;
      allowCoreThreadTimeOut(true);
    }

    @Override
    protected void beforeExecute(Thread t, Runnable r) {
      owner.set(this);
    }

    /**
     * Waits until every thread the pool started has ended, not only its last task: a terminated
     * pool's worker signals termination from within its own run, a moment before its thread ends.
     */
    boolean joinThreads(long deadline) throws InterruptedException {
      for (Thread t : ((Factory) getThreadFactory()).started()) {
        long left = deadline - System.nanoTime();
        if (t == Thread.currentThread()) {
          continue;
        }
        if (left <= 0) {
          return !t.isAlive();
        }
        TimeUnit.NANOSECONDS.timedJoin(t, left);
        if (t.isAlive()) {
          return false;
        }
      }
      return true;
    }

    /** Whether the calling thread is one of this pool's. */
    boolean runsCurrentThread() {
      return owner.get() == this;
    }
  }

  private static final class Factory implements java.util.concurrent.ThreadFactory {
    private final String name;
    private final int threads;
    private final AtomicInteger count = new AtomicInteger();
    private final Set<Thread> started = ConcurrentHashMap.newKeySet();

    Factory(String name, int threads) {
      this.name = name;
      this.threads = threads;
    }

    @Override
    public Thread newThread(Runnable r) {
      Thread t = new Thread(r, threads > 1 ? name + "-" + count.incrementAndGet() : name);
      t.setDaemon(true);
      started.removeIf(old -> !old.isAlive()); // threads that ended after their idle period
      started.add(t);
      return t;
    }

    /** The threads started and not yet seen ended: at most the pool's size and those ending. */
    List<Thread> started() {
      return List.copyOf(started);
    }
  }
}
