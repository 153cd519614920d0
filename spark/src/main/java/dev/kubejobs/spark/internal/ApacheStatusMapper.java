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
package dev.kubejobs.spark.internal;

import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.diagnosis.DiagnosisRule;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.JsonView;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.spark.diagnosis.SparkDiagnosisRules;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Maps an Apache Spark Kubernetes Operator SparkApplication ({@code spark.apache.org} v1 or
 * v1beta1) to a job status, following DESIGN.md section 4. Pure and thread safe. Not a published
 * API; obtain it from {@code SparkOperators.apache().statusMapper()}.
 */
public final class ApacheStatusMapper implements JobStatusMapper {
  static final String OPERATOR = "Apache Spark operator";

  /** States before the driver runs: QUEUED, or STARTED when an earlier attempt started. */
  static final Set<String> WAITING = Set.of("Submitted", "ScheduledToRestart", "DriverRequested");

  /** States in which the driver runs. */
  static final Set<String> RUNNING =
      Set.of(
          "DriverStarted",
          "DriverReady",
          "InitializedBelowThresholdExecutors",
          "RunningHealthy",
          "RunningWithPartialCapacity",
          "RunningWithBelowThresholdExecutors");

  /** Failed outcomes of an attempt. */
  static final Set<String> FAILURES =
      Set.of(
          "Failed",
          "SchedulingFailure",
          "DriverEvicted",
          "DriverStartTimedOut",
          "ExecutorsStartTimedOut",
          "DriverReadyTimedOut");

  static final String SUCCEEDED = "Succeeded";

  /**
   * Failures after which restart policy OnInfrastructureFailure restarts: the operator's {@code
   * ApplicationStateSummary.infrastructureFailures}.
   */
  static final Set<String> INFRASTRUCTURE_FAILURES =
      Set.of("DriverStartTimedOut", "ExecutorsStartTimedOut", "SchedulingFailure");

  /** States after the operator stopped the application for good. */
  static final Set<String> TERMINATED =
      Set.of("ResourceReleased", "TerminatedWithoutReleaseResources");

  /** States that show the driver started (an outcome other than scheduling or start failures). */
  private static final Set<String> SHOW_STARTED =
      Set.of(
          "DriverStarted",
          "DriverReady",
          "InitializedBelowThresholdExecutors",
          "RunningHealthy",
          "RunningWithPartialCapacity",
          "RunningWithBelowThresholdExecutors",
          "Succeeded",
          "ExecutorsStartTimedOut",
          "DriverReadyTimedOut");

  /** Longest {@code <name>-<attempt>} the operator uses as is; longer ids are hashed. */
  private static final int APP_ID_LIMIT = 46;

  private final StatusRules rules;

  /**
   * Creates the mapper.
   *
   * @param noStatusTimeout how long a SparkApplication may have no status
   */
  public ApacheStatusMapper(Duration noStatusTimeout) {
    this.rules = new StatusRules(OPERATOR, noStatusTimeout);
  }

  @Override
  public MappingDecision map(ResourceSnapshot application, DriverPod driverPod, Instant now) {
    return rules.decide(application, observe(application), restarts(application), driverPod, now);
  }

  /**
   * Whether the operator says the driver runs with fewer executors than the application's minimum:
   * its status lists no executors, only the aggregate states {@code
   * InitializedBelowThresholdExecutors} and {@code RunningWithBelowThresholdExecutors} (the
   * ApplicationStateSummary values of apache/spark-kubernetes-operator, in its CRD's status).
   */
  @Override
  public boolean executorsWaiting(ResourceSnapshot application) {
    return application
        .view()
        .object("status", "currentState")
        .flatMap(cs -> cs.string("currentStateSummary"))
        .filter(
            state ->
                state.equals("InitializedBelowThresholdExecutors")
                    || state.equals("RunningWithBelowThresholdExecutors"))
        .isPresent();
  }

  /** The states in which the operator records executors missing or given up on. */
  private static final Set<String> EXECUTOR_TROUBLE =
      Set.of(
          "InitializedBelowThresholdExecutors",
          "RunningWithBelowThresholdExecutors",
          "ExecutorsStartTimedOut");

  /**
   * Whether an attempt that ended (its current state neither waiting nor running) went through a
   * state recording executors below the threshold or timed out: the operator's history is all it
   * keeps of them, so the executor pods (or their events) are read to say why. A running
   * application's executors are {@link #executorsWaiting}'s.
   */
  @Override
  public boolean executorsFailed(ResourceSnapshot application) {
    String current =
        application
            .view()
            .object("status", "currentState")
            .flatMap(cs -> cs.string("currentStateSummary"))
            .orElse("");
    if (current.isEmpty() || WAITING.contains(current) || RUNNING.contains(current)) {
      return false;
    }
    JsonView history = application.view().object("status", "stateTransitionHistory").orElse(null);
    if (history == null) {
      return false;
    }
    boolean[] seen = {false};
    history.forEachField(
        (key, state) ->
            seen[0] |=
                state.string("currentStateSummary").filter(EXECUTOR_TROUBLE::contains).isPresent());
    return seen[0];
  }

  /** The operator's own diagnosis rule: {@link SparkDiagnosisRules#apache()}. */
  @Override
  public List<DiagnosisRule> diagnosisRules() {
    return List.of(SparkDiagnosisRules.apache());
  }

  /**
   * Returns the driver pod name of the current attempt, {@code <name>-<attempt>-driver}, when the
   * operator does not shorten it with a hash.
   *
   * @param application the SparkApplication
   * @return the name, or empty
   */
  public static Optional<String> driverPodName(ResourceSnapshot application) {
    String name = application.name();
    if (name.isEmpty()) {
      return Optional.empty();
    }
    long attempt =
        application
            .view()
            .number("status", "currentAttemptSummary", "attemptInfo", "id")
            .orElse(0L);
    String appId = name + "-" + attempt;
    return appId.length() > APP_ID_LIMIT ? Optional.empty() : Optional.of(appId + "-driver");
  }

  /**
   * One state of the history (or the current one, with a null key). Its time is parsed when first
   * asked for: most entries' times are never needed, and a mapper runs for every job of every poll.
   */
  private static final class Entry {
    private final long key;
    private final BigInteger bigKey;
    private final String state;
    private final String time;
    private final String message;
    private Instant at;
    private boolean parsed;

    Entry(long key, BigInteger bigKey, String state, String time, String message) {
      this.key = key;
      this.bigKey = bigKey;
      this.state = state;
      this.time = time;
      this.message = message;
    }

    String state() {
      return state;
    }

    String message() {
      return message;
    }

    Instant at() {
      if (!parsed) {
        at = time == null ? null : ResourceSnapshot.parseTime(time).orElse(null);
        parsed = true;
      }
      return at;
    }

    /** Orders by key, as numbers of any size. */
    static int compareKeys(Entry a, Entry b) {
      if (a.bigKey == null && b.bigKey == null) {
        return Long.compare(a.key, b.key);
      }
      BigInteger x = a.bigKey != null ? a.bigKey : BigInteger.valueOf(a.key);
      BigInteger y = b.bigKey != null ? b.bigKey : BigInteger.valueOf(b.key);
      return x.compareTo(y);
    }
  }

  Observation observe(ResourceSnapshot app) {
    String podName = driverPodName(app).orElse(null);
    JsonView raw = app.view().get("status").orElse(null);
    if (raw == null || (raw.isObject() && raw.size() == 0)) {
      return new Observation(
          Observation.Kind.NO_STATUS,
          "",
          JobStatus.QUEUED,
          null,
          false,
          null,
          null,
          "No status from the " + OPERATOR + " yet.",
          null,
          podName,
          null);
    }
    if (!raw.isObject()) {
      return unparseable(podName);
    }
    JsonView status = raw;
    List<Entry> history = history(status.get("stateTransitionHistory").orElse(null));
    JsonView cs = status.get("currentState").orElse(null);
    Entry current;
    if (cs != null) {
      if (!cs.isObject()) {
        return unparseable(podName);
      }
      String summary = cs.string("currentStateSummary").orElse("");
      if (summary.isEmpty()) {
        return unparseable(podName);
      }
      current =
          new Entry(
              0,
              null,
              summary,
              cs.string("lastTransitionTime").orElse(null),
              cs.string("message").orElse(""));
    } else if (!history.isEmpty()) {
      current = history.get(history.size() - 1);
    } else {
      return unparseable(podName);
    }
    List<Entry> seq = new ArrayList<>(history);
    if (seq.isEmpty() || !seq.get(seq.size() - 1).state().equals(current.state())) {
      seq.add(current);
    }
    List<Entry> all = new ArrayList<>(seq);
    status
        .object("previousAttemptSummary")
        .ifPresent(p -> all.addAll(history(p.get("stateTransitionHistory").orElse(null))));
    Instant startedAt = null;
    boolean everStarted = false;
    for (Entry e : all) {
      if (SHOW_STARTED.contains(e.state())) {
        everStarted = true;
        Instant at = e.at();
        if (at != null && (startedAt == null || at.isBefore(startedAt))) {
          startedAt = at;
        }
      }
    }
    JobStatus unfinished = everStarted ? JobStatus.STARTED : JobStatus.QUEUED;
    String state = current.state();
    String described = describe(current);

    if (TERMINATED.contains(state)) {
      Entry outcome = outcomeBefore(seq);
      if (outcome != null) {
        return known(state, unfinished, outcomeOf(outcome, app), startedAt, described, podName);
      }
      return new Observation(
          Observation.Kind.KNOWN,
          state,
          unfinished,
          null,
          true,
          current.at(),
          startedAt,
          described,
          null,
          podName,
          null);
    }
    if (state.equals(SUCCEEDED) || FAILURES.contains(state)) {
      String policy = restartPolicy(app);
      // Being deleted, no restart follows: the attempt's end is the job's, unless a cancel is what
      // deletes it — then the cancel stopped a job that would have gone on (CANCELLED).
      boolean cancelled = app.annotation(JobIdentity.ANNOTATION_CANCEL_REQUESTED).isPresent();
      if (!mayRestart(policy, state) || (app.isBeingDeleted() && !cancelled)) {
        return known(state, unfinished, outcomeOf(current, app), startedAt, described, podName);
      }
      return known(
          state,
          unfinished,
          null,
          startedAt,
          described
              + " The operator may restart the application (restart policy "
              + policy
              + "); the outcome is final once it records ResourceReleased or"
              + " TerminatedWithoutReleaseResources.",
          podName);
    }
    if (RUNNING.contains(state)) {
      return known(state, JobStatus.STARTED, null, startedAt, described, podName);
    }
    if (WAITING.contains(state)) {
      return known(state, unfinished, null, startedAt, described, podName);
    }
    return new Observation(
        Observation.Kind.UNKNOWN_STATE,
        state,
        unfinished,
        null,
        false,
        null,
        startedAt,
        described + " This kubejobs version does not know the state; the job stays unfinished.",
        "The "
            + OPERATOR
            + " reports state '"
            + state
            + "', which this kubejobs version does not know; such jobs stay unfinished until"
            + " the operator reports a known state. Upgrade kubejobs to match the operator.",
        podName,
        null);
  }

  /** The restart policy as the operator reads it: {@code Never} when unset. */
  private static String restartPolicy(ResourceSnapshot app) {
    return app.view()
        .string("spec", "applicationTolerations", "restartConfig", "restartPolicy")
        .orElse("Never");
  }

  /**
   * Returns whether the operator may start another attempt after an attempt ended in {@code state},
   * as the operator's {@code RestartPolicy.attemptRestartOnState} decides: Always restarts after
   * every ending, OnFailure after failures, OnInfrastructureFailure after infrastructure failures,
   * Never after none. A policy this version does not know may restart.
   */
  static boolean mayRestart(String policy, String state) {
    return switch (policy) {
      case "Never" -> false;
      case "OnFailure" -> FAILURES.contains(state);
      case "OnInfrastructureFailure" -> INFRASTRUCTURE_FAILURES.contains(state);
      default -> true;
    };
  }

  /**
   * Whether another attempt may follow a driver that exited: an exit code 0 ends the attempt as
   * {@code Succeeded}, another code as {@code Failed}.
   */
  static Restarts restarts(ResourceSnapshot app) {
    String policy = restartPolicy(app);
    return new Restarts(mayRestart(policy, SUCCEEDED), mayRestart(policy, "Failed"));
  }

  private static Observation known(
      String state,
      JobStatus unfinished,
      Observation.Outcome outcome,
      Instant startedAt,
      String message,
      String podName) {
    return new Observation(
        Observation.Kind.KNOWN,
        state,
        unfinished,
        outcome,
        false,
        null,
        startedAt,
        message,
        null,
        podName,
        null);
  }

  private static Observation unparseable(String podName) {
    return new Observation(
        Observation.Kind.UNPARSEABLE,
        "",
        JobStatus.QUEUED,
        null,
        false,
        null,
        null,
        "The " + OPERATOR + "'s status has no state this kubejobs version can read.",
        "The "
            + OPERATOR
            + " wrote a status without a readable status.currentState.currentStateSummary"
            + " (a newer operator?); kubejobs keeps such jobs unfinished, never deletes them,"
            + " and decides their outcome from the driver container's exit code.",
        podName,
        null);
  }

  /** The nearest outcome before the last (terminated) entry, within the same attempt. */
  private static Entry outcomeBefore(List<Entry> seq) {
    for (int i = seq.size() - 2; i >= 0; i--) {
      String s = seq.get(i).state();
      if (s.equals("ScheduledToRestart")) {
        return null;
      }
      if (s.equals(SUCCEEDED) || FAILURES.contains(s)) {
        return seq.get(i);
      }
    }
    return null;
  }

  private static Observation.Outcome outcomeOf(Entry e, ResourceSnapshot app) {
    if (e.state().equals(SUCCEEDED)) {
      return new Observation.Outcome(
          JobStatus.SUCCEEDED, e.at(), "The Spark application succeeded." + detail(e));
    }
    return new Observation.Outcome(
        JobStatus.FAILED,
        e.at(),
        "The Spark application failed (operator state "
            + e.state()
            + ")."
            + detail(e)
            + " Check the driver log and `kubectl describe sparkapplication "
            + app.name()
            + " -n "
            + app.namespace()
            + "`.");
  }

  private static String detail(Entry e) {
    return e.message().isBlank() ? "" : " Operator message: " + sentence(e.message());
  }

  /** Returns the text as one sentence: trimmed, ending with exactly one full stop. */
  static String sentence(String text) {
    String t = text.strip();
    while (t.endsWith(".")) {
      t = t.substring(0, t.length() - 1).strip();
    }
    return t + ".";
  }

  private static String describe(Entry e) {
    return "Apache Spark operator state " + e.state() + "." + detail(e);
  }

  private static List<Entry> history(JsonView raw) {
    List<Entry> out = new ArrayList<>();
    if (raw == null || !raw.isObject()) {
      return out;
    }
    raw.forEachField(
        (field, v) -> {
          if (!v.isObject()) {
            return;
          }
          long key = smallKey(field);
          BigInteger bigKey = null;
          if (key < 0) {
            try {
              bigKey = new BigInteger(field.trim());
            } catch (NumberFormatException ex) {
              return;
            }
          }
          String state = v.string("currentStateSummary").orElse("");
          if (state.isEmpty()) {
            return;
          }
          out.add(
              new Entry(
                  key,
                  bigKey,
                  state,
                  v.string("lastTransitionTime").orElse(null),
                  v.string("message").orElse("")));
        });
    out.sort(Entry::compareKeys);
    return out;
  }

  /**
   * A history key of at most 18 plain digits as a number, or -1 for any other form (a sign, blanks,
   * more digits), which {@code BigInteger} then reads.
   */
  private static long smallKey(String field) {
    int n = field.length();
    if (n == 0 || n > 18) {
      return -1;
    }
    long value = 0;
    for (int i = 0; i < n; i++) {
      char c = field.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }
}
