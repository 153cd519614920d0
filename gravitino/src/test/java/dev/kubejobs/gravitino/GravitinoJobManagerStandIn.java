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
package dev.kubejobs.gravitino;

import java.io.File;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.gravitino.connector.job.JobContext;
import org.apache.gravitino.connector.job.JobExecutionInfo;
import org.apache.gravitino.connector.job.JobExecutor;
import org.apache.gravitino.exceptions.NoSuchJobException;
import org.apache.gravitino.job.JobHandle;
import org.apache.gravitino.job.JobTemplate;

/**
 * A small stand-in of Gravitino's job manager ({@code org.apache.gravitino.job.JobManager} in
 * gravitino-core): job templates and job records in one store shared by every server node, each
 * node with its own {@link JobExecutor}, and the parts of the manager an executor sees.
 *
 * <ul>
 *   <li>{@code runJob}: submit through the node's executor with a {@link JobContext}, record the
 *       job QUEUED with the execution id (JobManager.runJob).
 *   <li>{@code pull}, run every interval on each node by {@link #startPulling}: for each active job
 *       (QUEUED, STARTED, CANCELLING) the node's executor {@link JobExecutor#ownsJob owns}, ask
 *       {@link JobExecutor#getJobExecutionInfo}; a {@link NoSuchJobException} ends the job
 *       CANCELLED when it was CANCELLING, else FAILED; any other exception leaves the record as it
 *       is (JobManager.pullAndUpdateJobStatus). Records are updated with a compare-and-set on what
 *       the pull read, like Gravitino's version-checked status updates, and a finished job is never
 *       changed again.
 *   <li>{@code cancel}: nothing for a job already finished or CANCELLING; else the node's executor
 *       cancels it and the job is recorded CANCELLING (JobManager.cancelJob).
 * </ul>
 *
 * <p>Thread safe.
 */
final class GravitinoJobManagerStandIn implements AutoCloseable {
  /** A job record of the shared store. */
  record Job(
      long id,
      String template,
      String executionId,
      JobHandle.Status status,
      Instant startedAt,
      Instant finishedAt) {
    boolean finished() {
      return status == JobHandle.Status.SUCCEEDED
          || status == JobHandle.Status.FAILED
          || status == JobHandle.Status.CANCELLED;
    }
  }

  /** Per node, the lock its pulls take, which {@link #whilePullsPaused} holds. */
  private final Map<JobExecutor, ReentrantLock> pauses = new ConcurrentHashMap<>();

  private final String metalake;
  private final File stagingDir;
  private final Map<String, JobTemplate> templates = new ConcurrentHashMap<>();
  private final Map<Long, Job> jobs = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong(1000);
  private final List<ScheduledExecutorService> pullers = new CopyOnWriteArrayList<>();
  private final List<String> pullErrors = new CopyOnWriteArrayList<>();
  private final List<Throwable> endedPulls = new CopyOnWriteArrayList<>();

  GravitinoJobManagerStandIn(String metalake, File stagingDir) {
    this.metalake = metalake;
    this.stagingDir = stagingDir;
  }

  void registerTemplate(String name, JobTemplate template) {
    templates.put(name, template);
  }

  long runJob(JobExecutor node, String templateName) {
    long id = ids.incrementAndGet();
    String executionId =
        node.submitJob(new JobContext(id, metalake, stagingDir), templates.get(templateName));
    jobs.put(id, new Job(id, templateName, executionId, JobHandle.Status.QUEUED, null, null));
    return id;
  }

  /** Records a job some other executor submitted under {@code executionId}, QUEUED. */
  long recordJob(String templateName, String executionId) {
    long id = ids.incrementAndGet();
    jobs.put(id, new Job(id, templateName, executionId, JobHandle.Status.QUEUED, null, null));
    return id;
  }

  Job job(long id) {
    return jobs.get(id);
  }

  /** Pulls the status of every active job the node owns, once. */
  void pull(JobExecutor node) {
    for (Job read : new ArrayList<>(jobs.values())) {
      if (read.finished() || !node.ownsJob(read.executionId())) {
        continue;
      }
      Job next;
      try {
        JobExecutionInfo info = node.getJobExecutionInfo(read.executionId());
        next =
            new Job(
                read.id(),
                read.template(),
                read.executionId(),
                info.status(),
                info.startedAt() != null ? info.startedAt() : read.startedAt(),
                info.finishedAt());
      } catch (NoSuchJobException e) {
        next =
            new Job(
                read.id(),
                read.template(),
                read.executionId(),
                read.status() == JobHandle.Status.CANCELLING
                    ? JobHandle.Status.CANCELLED
                    : JobHandle.Status.FAILED,
                read.startedAt(),
                null);
      } catch (RuntimeException e) {
        pullErrors.add(read.executionId() + ": " + e);
        continue;
      }
      if (!next.equals(read)) {
        jobs.replace(read.id(), read, next); // lost to a newer update: the next pull decides again
      }
    }
  }

  void cancel(JobExecutor node, long id) {
    Job read = jobs.get(id);
    if (read.finished() || read.status() == JobHandle.Status.CANCELLING) {
      return;
    }
    node.cancelJob(read.executionId());
    jobs.computeIfPresent(
        id,
        (k, latest) ->
            latest.finished()
                ? latest
                : new Job(
                    k,
                    latest.template(),
                    latest.executionId(),
                    JobHandle.Status.CANCELLING,
                    latest.startedAt(),
                    null));
  }

  /**
   * Starts pulling on a node every {@code interval} on its own thread, until {@link #close()}. Like
   * Gravitino's scheduled pull, the thread survives any {@link Exception} (recorded in {@link
   * #pullErrors}) but not an {@link Error}: that ends the node's pulls for good, and is recorded in
   * {@link #endedPulls}, which a test asserts empty.
   */
  void startPulling(JobExecutor node, Duration interval) {
    ScheduledExecutorService puller = Executors.newSingleThreadScheduledExecutor();
    pullers.add(puller);
    ReentrantLock paused = pauses.computeIfAbsent(node, n -> new ReentrantLock());
    puller.scheduleWithFixedDelay(
        () -> {
          paused.lock();
          try {
            pull(node);
          } catch (Exception e) {
            pullErrors.add(e.toString());
          } catch (Error e) {
            endedPulls.add(e);
            throw e; // the scheduled pull ends, as Gravitino's does
          } finally {
            paused.unlock();
          }
        },
        0,
        interval.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /**
   * Returns the errors that ended a pull thread: in Gravitino, each leaves every active job of its
   * node in its last status forever, silently.
   */
  List<Throwable> endedPulls() {
    return List.copyOf(endedPulls);
  }

  /**
   * Runs {@code action} while a node's pulls (started by {@link #startPulling}) are held; a pull in
   * flight finishes first.
   */
  void whilePullsPaused(JobExecutor node, Runnable action) {
    ReentrantLock paused = pauses.computeIfAbsent(node, n -> new ReentrantLock());
    paused.lock();
    try {
      action.run();
    } finally {
      paused.unlock();
    }
  }

  /** Returns what pulls failed with other than {@link NoSuchJobException}. */
  List<String> pullErrors() {
    return List.copyOf(pullErrors);
  }

  /** Stops the pullers and waits for them (keeping the thread's interrupt if interrupted). */
  @Override
  public void close() {
    for (ScheduledExecutorService puller : pullers) {
      puller.shutdownNow();
      try {
        puller.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
