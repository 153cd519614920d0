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
package dev.kubejobs.examples.cli;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.NoSuchJobException;
import dev.kubejobs.core.cancel.CancelResult;
import dev.kubejobs.core.logs.DriverLog;
import dev.kubejobs.core.preflight.PreflightReport;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.status.StatusSource;
import dev.kubejobs.core.sweep.SweepEntry;
import dev.kubejobs.core.sweep.SweepReport;
import dev.kubejobs.core.sweep.SweepRequest;
import dev.kubejobs.examples.Errors;
import dev.kubejobs.examples.Errors.CliException;
import dev.kubejobs.spark.SparkJobSpec;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.ListOptions;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The real-cluster commands of the example program: each builds a {@link KubeJobs} from the {@link
 * ClusterOptions} and calls one operation. Output goes to the command line's writers, so tests can
 * read it.
 */
public final class Commands {
  /** The Spark examples jar of the {@code apache/spark} image. */
  public static final String SPARK_EXAMPLES_JAR =
      "local:///opt/spark/examples/jars/spark-examples.jar";

  private Commands() {}

  /** Base of the commands: the shared options and the output writers. */
  abstract static class Base implements Callable<Integer> {
    @Mixin ClusterOptions cluster;
    @Spec CommandSpec spec;

    /**
     * Runs the command; a job that is not there is looked for under the other operator, the most
     * common reason a job a user just submitted is "not there".
     */
    @Override
    public final Integer call() {
      if (jobArgument() != null) {
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        cluster.takeFromId(jobArgument(), parsed::hasMatchedOption);
      }
      try {
        return run();
      } catch (NoSuchJobException e) {
        throw jobArgument() == null ? e : cluster.notFound(e, jobArgument());
      }
    }

    /**
     * Runs the command.
     *
     * @return the exit code
     */
    abstract Integer run();

    /** The job argument of a command on one job, else null. */
    String jobArgument() {
      return null;
    }

    PrintWriter out() {
      return spec.commandLine().getOut();
    }

    PrintWriter err() {
      return spec.commandLine().getErr();
    }
  }

  /** Submits a Spark job; SparkPi unless told otherwise. */
  @Command(
      name = "submit",
      mixinStandardHelpOptions = true,
      description = "Submits a Spark job (SparkPi by default) and prints its execution id.")
  public static final class Submit extends Base {
    @Parameters(index = "0", paramLabel = "JOB_ID", description = "Your id of the job.")
    String jobId;

    @Parameters(index = "1..*", paramLabel = "ARG", description = "Application arguments.")
    List<String> arguments = new ArrayList<>();

    @Option(
        names = "--main-class",
        defaultValue = "org.apache.spark.examples.SparkPi",
        description = "Main class (default: ${DEFAULT-VALUE}).")
    String mainClass;

    @Option(
        names = "--jar",
        defaultValue = SPARK_EXAMPLES_JAR,
        description = "Main application jar (default: ${DEFAULT-VALUE}).")
    String jar;

    @Option(
        names = "--image",
        defaultValue = "apache/spark:4.0.1",
        description = "Container image (default: ${DEFAULT-VALUE}).")
    String image;

    @Option(
        names = "--spark-version",
        defaultValue = "4.0.1",
        description = "Spark version (default: ${DEFAULT-VALUE}).")
    String sparkVersion;

    @Option(
        names = "--service-account",
        description = "Service account of the driver (default: the namespace's default).")
    String serviceAccount;

    @Option(names = "--executors", defaultValue = "1", description = "Executor count.")
    int executors;

    @Option(names = "--conf", paramLabel = "KEY=VALUE", description = "Spark configuration.")
    Map<String, String> conf = new LinkedHashMap<>();

    @Option(names = "--label", paramLabel = "KEY=VALUE", description = "Extra resource labels.")
    Map<String, String> labels = new LinkedHashMap<>();

    @Override
    Integer run() {
      SparkJobSpec.Builder spec =
          SparkJobSpec.builder()
              .namespace(cluster.namespace())
              .mainApplicationFile(jar)
              .mainClass(mainClass)
              .image(image)
              .sparkVersion(sparkVersion)
              .executorInstances(executors)
              .sparkConf(conf)
              .labels(labels)
              .arguments(arguments);
      if (serviceAccount != null) {
        spec.serviceAccount(serviceAccount);
      }
      ExecutionId id = cluster.kubeJobs().submitter().submit(jobId, spec.build());
      out().println(id);
      return 0;
    }
  }

  /** Prints a job's status. */
  @Command(
      name = "status",
      mixinStandardHelpOptions = true,
      description = {
        "Prints a job's status.",
        "Exit code 0 when the job is queued, running or succeeded, 1 when it failed or was"
            + " cancelled, 4 when there is no such job."
      })
  public static final class Status extends Base {
    @Parameters(paramLabel = "ID", description = "Execution id (as submit prints it) or job id.")
    String id;

    @Override
    String jobArgument() {
      return id;
    }

    @Override
    Integer run() {
      KubeJobs<SparkJobSpec> jobs = cluster.kubeJobs();
      ExecutionId executionId = cluster.executionId(jobs, id);
      JobExecutionInfo info = jobs.statusReader().get(executionId);
      print(out(), executionId, info);
      return exitCode(info.status());
    }

    /**
     * The exit code of {@code status} and {@code watch} for a job's status: 1 when it ended without
     * succeeding, else 0 (a job still running has not failed).
     */
    static int exitCode(JobStatus status) {
      return status == JobStatus.FAILED || status == JobStatus.CANCELLED ? Errors.FAILED : 0;
    }

    /** Prints a status, then its diagnosis when it carries one. */
    static void print(PrintWriter out, ExecutionId executionId, JobExecutionInfo info) {
      out.println("id:        " + executionId);
      out.println("status:    " + info.status());
      out.println("operator:  " + orDash(info.operatorState()));
      out.println("started:   " + time(info.startedAt()));
      out.println("finished:  " + time(info.finishedAt()));
      out.println("driver:    " + info.driverPod().orElse("-"));
      out.println("web UI:    " + info.webUi().orElse("-"));
      out.println("message:   " + orDash(info.message()));
      DiagnosisFormat.lines(info).forEach(out::println);
    }
  }

  /** Follows a job until it ends, one line per change. */
  @Command(
      name = "watch",
      mixinStandardHelpOptions = true,
      description = {
        "Follows a job until it ends, one line per state change.",
        "Exit code 0 when it succeeded, 1 when it failed or was cancelled, 4 when there is no"
            + " such job."
      })
  public static final class Watch extends Base {
    @Parameters(paramLabel = "ID", description = "Execution id (as submit prints it) or job id.")
    String id;

    @Override
    String jobArgument() {
      return id;
    }

    @Option(
        names = "--interval",
        defaultValue = "2s",
        converter = DurationConverter.class,
        description =
            "Time between looks at the watched status (no request while the watch is open),"
                + " e.g. 2s, 500ms (default: ${DEFAULT-VALUE}).")
    Duration interval;

    @Override
    Integer run() {
      // Watch mode: one LIST and one WATCH of the namespace; each look below costs no request
      // while the watch is open.
      try (KubeJobs<SparkJobSpec> jobs = cluster.kubeJobs(StatusSource.watch())) {
        return follow(jobs);
      }
    }

    private int follow(KubeJobs<SparkJobSpec> jobs) {
      ExecutionId executionId = cluster.executionId(jobs, id);
      PrintWriter out = out();
      out.println("watching " + executionId);
      long start = System.nanoTime();
      WatchPrinter printer = new WatchPrinter(out);
      while (true) {
        JobExecutionInfo info = jobs.statusReader().get(executionId);
        printer.print((System.nanoTime() - start) / 1e9, info);
        if (info.status().isTerminal()) {
          return Status.exitCode(info.status());
        }
        LockSupport.parkNanos(interval.toNanos());
        if (Thread.interrupted()) {
          throw new CliException(
              Errors.COMMAND_FAILED, "interrupted while watching " + executionId);
        }
      }
    }
  }

  /**
   * Prints the {@code watch} command's lines: one per change of status or operator state, and the
   * diagnosis, indented below, each time it appears or changes (its cause or sentence). Not thread
   * safe.
   */
  static final class WatchPrinter {
    private static final String INDENT = " ".repeat(10);
    private final PrintWriter out;
    private String lastLine;
    private String lastDiagnosis = "";

    WatchPrinter(PrintWriter out) {
      this.out = out;
    }

    /** Prints what changed since the last call, if anything, and flushes. */
    void print(double elapsedSeconds, JobExecutionInfo info) {
      String line = info.status() + "  " + orDash(info.operatorState());
      String diagnosis = DiagnosisFormat.key(info);
      if (!line.equals(lastLine)) {
        out.printf(
            Locale.ROOT,
            "%+7.1fs  %-10s %-28s %s%n",
            elapsedSeconds,
            info.status(),
            orDash(info.operatorState()),
            orDash(info.message()));
        lastLine = line;
      }
      if (!diagnosis.equals(lastDiagnosis)) {
        DiagnosisFormat.lines(info).forEach(l -> out.println(INDENT + l));
        lastDiagnosis = diagnosis;
      }
      out.flush();
    }
  }

  /** Cancels a job. */
  @Command(
      name = "cancel",
      mixinStandardHelpOptions = true,
      description = "Cancels a job; does not wait for it to stop.")
  public static final class Cancel extends Base {
    @Parameters(paramLabel = "ID", description = "Execution id (as submit prints it) or job id.")
    String id;

    @Override
    String jobArgument() {
      return id;
    }

    @Override
    Integer run() {
      KubeJobs<SparkJobSpec> jobs = cluster.kubeJobs();
      ExecutionId executionId = cluster.executionId(jobs, id);
      CancelResult result = jobs.canceller().cancel(executionId);
      String what =
          switch (result) {
            case REQUESTED -> "cancel requested; the operator stops the driver";
            case ALREADY_FINISHED -> "already finished; it keeps its outcome";
            case ALREADY_DELETING -> "already being deleted";
          };
      out().println(result + ": " + executionId + ": " + what);
      return 0;
    }
  }

  /** Prints the end of a job's driver log. */
  @Command(
      name = "logs",
      mixinStandardHelpOptions = true,
      description = "Prints the end of a job's driver log.")
  public static final class Logs extends Base {
    @Parameters(paramLabel = "ID", description = "Execution id (as submit prints it) or job id.")
    String id;

    @Override
    String jobArgument() {
      return id;
    }

    @Option(
        names = "--lines",
        defaultValue = "100",
        description = "Lines to print (default: ${DEFAULT-VALUE}).")
    int lines;

    @Override
    Integer run() {
      KubeJobs<SparkJobSpec> jobs = cluster.kubeJobs();
      ExecutionId executionId = cluster.executionId(jobs, id);
      DriverLog log = jobs.driverLogs().tail(executionId, lines, 1 << 20);
      if (log.isEmpty()) {
        err().println(whyNoLog(jobs, executionId));
        return 0;
      }
      log.lines().forEach(out()::println);
      return 0;
    }

    /** Says why a job has no driver log to read, from its status, and what would keep one. */
    private String whyNoLog(KubeJobs<SparkJobSpec> jobs, ExecutionId executionId) {
      String none = "no driver log of " + executionId + ": ";
      JobExecutionInfo info = jobs.statusReader().get(executionId); // NoSuchJob: told by Errors
      if (!info.status().isTerminal()) {
        return none
            + "the job is "
            + info.status()
            + " ("
            + orDash(info.operatorState())
            + ") and its driver pod has no log yet; try again once it runs";
      }
      String ended = "the job ended " + info.status() + " and its driver pod is gone";
      return none
          + ended
          + (cluster.operator() == ClusterOptions.Operator.apache
              ? "; the Apache operator deletes it when the job ends unless the application's"
                  + " resourceRetainPolicy is Always or OnFailure (ApacheOptions"
                  + ".resourceRetainPolicy); to keep logs past a job's end, collect them with a"
                  + " cluster log agent or Spark's event log"
              : "; the Kubeflow operator keeps it until the SparkApplication is deleted"
                  + " (a cancel, timeToLiveSeconds, or someone else); to keep logs past that,"
                  + " collect them with a cluster log agent or Spark's event log");
    }
  }

  /** Lists the jobs of this deployment in the namespace. */
  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "Lists this deployment's jobs in the namespace, with their status.")
  public static final class ListJobs extends Base {
    @Override
    Integer run() {
      ApiClient client = cluster.apiClient();
      KubeJobs<SparkJobSpec> jobs = cluster.kubeJobs();
      ResourceKind kind = jobs.jobKind().resourceKind();
      ListOptions options = new ListOptions();
      options.setLabelSelector(
          JobIdentity.LABEL_MANAGED_BY
              + "="
              + JobIdentity.MANAGED_BY_VALUE
              + ","
              + JobIdentity.LABEL_DEPLOYMENT
              + "="
              + cluster.deployment());
      KubernetesApiResponse<DynamicKubernetesListObject> listed =
          new DynamicKubernetesApi(kind.group(), kind.version(), kind.plural(), client)
              .list(cluster.namespace(), options);
      if (!listed.isSuccess()) {
        String reason = listed.getStatus() != null ? listed.getStatus().getMessage() : "";
        if (listed.getHttpStatusCode() == 404) {
          throw new CliException(
              Errors.COMMAND_FAILED,
              kind.qualifiedPlural()
                  + " "
                  + kind.version()
                  + " is not served: is the "
                  + cluster.operator()
                  + " Spark operator's CRD installed? ("
                  + reason
                  + ")");
        }
        throw new CliException(
            Errors.COMMAND_FAILED,
            "cannot list "
                + kind.qualifiedPlural()
                + " in "
                + cluster.namespace()
                + ": "
                + listed.getHttpStatusCode()
                + " "
                + reason);
      }
      Map<ExecutionId, String> jobIds = new LinkedHashMap<>();
      for (DynamicKubernetesObject o : listed.getObject().getItems()) {
        V1ObjectMeta meta = o.getMetadata();
        String jobId =
            meta.getAnnotations() != null
                ? meta.getAnnotations().getOrDefault(JobIdentity.ANNOTATION_JOB_ID, "-")
                : "-";
        jobIds.put(
            ExecutionId.of(cluster.cluster, kind, cluster.namespace(), meta.getName()), jobId);
      }
      Map<ExecutionId, JobExecutionInfo> infos = jobs.statusReader().getAllInfos(jobIds.keySet());
      Instant now = Instant.now();
      PrintWriter out = out();
      out.println(listRow("JOB ID", "STATUS", "STARTED", "FINISHED", "RAN"));
      jobIds.forEach(
          (id, jobId) -> {
            JobExecutionInfo info = infos.get(id);
            out.println(
                info == null
                    ? listRow(jobId, "GONE", "-", "-", "-")
                    : listRow(
                        jobId,
                        info.status().name(),
                        info.startedAt().map(Commands::shortTime).orElse("-"),
                        info.finishedAt().map(Commands::shortTime).orElse("-"),
                        info.startedAt()
                            .map(s -> took(s, info.finishedAt().orElse(now)))
                            .orElse("-")));
          });
      out.println(
          jobIds.size()
              + " job(s) of deployment "
              + cluster.deployment()
              + " in "
              + cluster.namespace()
              + "; times in UTC");
      return 0;
    }
  }

  /** One row of {@code list}: at most 80 columns, the job id shortened in the middle if longer. */
  static String listRow(String jobId, String status, String started, String finished, String ran) {
    String id =
        jobId.length() <= 24
            ? jobId
            : jobId.substring(0, 11) + "~" + jobId.substring(jobId.length() - 12);
    return String.format(
            Locale.ROOT, "%-24s  %-10s  %-14s  %-14s  %s", id, status, started, finished, ran)
        .stripTrailing();
  }

  /** A time to the second, in UTC: {@code 12-04 01:52:03}. */
  static String shortTime(Instant t) {
    return SHORT_TIME.format(t);
  }

  /** A duration to the second, the two largest units: {@code 45s}, {@code 3m12s}, {@code 2h05m}. */
  static String took(Instant from, Instant to) {
    long s = Math.max(0, Duration.between(from, to).getSeconds());
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }
    if (s < 86400) {
      return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
    }
    return String.format(Locale.ROOT, "%dd%02dh", s / 86400, (s % 86400) / 3600);
  }

  private static final DateTimeFormatter SHORT_TIME =
      DateTimeFormatter.ofPattern("MM-dd HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);

  /** Deletes this deployment's resources of jobs not kept. */
  @Command(
      name = "sweep",
      mixinStandardHelpOptions = true,
      description = {
        "Deletes this deployment's job resources older than the grace period, except those of the"
            + " jobs given with --keep.",
        "Exit code 1 when something could not be deleted."
      })
  public static final class Sweep extends Base {
    @Option(names = "--keep", paramLabel = "JOB_ID", description = "A job id to keep.")
    List<String> keep = new ArrayList<>();

    @Option(
        names = "--grace-period",
        defaultValue = "1h",
        converter = DurationConverter.class,
        description = "Minimum age of what is deleted (default: ${DEFAULT-VALUE}).")
    Duration gracePeriod;

    @Option(names = "--dry-run", description = "Only print what would be deleted.")
    boolean dryRun;

    @Override
    Integer run() {
      SweepReport report =
          cluster
              .kubeJobs()
              .sweeper()
              .sweep(
                  SweepRequest.builder()
                      .namespaces(cluster.namespace())
                      .knownJobIds(keep)
                      .gracePeriod(gracePeriod)
                      .dryRun(dryRun)
                      .build());
      for (SweepEntry e : report.entries()) {
        out().println(e.outcome() + "  " + e.namespace() + "/" + e.name() + "  job " + e.jobId());
      }
      out().println(report.summary());
      return report.isComplete() ? 0 : Errors.FAILED;
    }
  }

  /** Checks the CRD and the permissions. */
  @Command(
      name = "check",
      mixinStandardHelpOptions = true,
      description = {
        "Checks that the operator's CRD is served and every permission kubejobs uses is granted.",
        "Exit code 1 when something is missing."
      })
  public static final class Check extends Base {
    @Override
    Integer run() {
      PreflightReport report = cluster.kubeJobs().preflight().check(cluster.namespace());
      out().println(report.summary());
      return report.isOk() ? 0 : Errors.FAILED;
    }
  }

  /** Parses {@code 2s}, {@code 500ms}, {@code 10m}, {@code 1h} or ISO-8601 {@code PT2S}. */
  public static final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      String v = value.strip().toLowerCase(Locale.ROOT);
      try {
        if (v.startsWith("pt") || v.startsWith("p")) {
          return Duration.parse(v.toUpperCase(Locale.ROOT));
        }
        if (v.endsWith("ms")) {
          return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
        }
        long n = Long.parseLong(v.substring(0, v.length() - 1));
        return switch (v.charAt(v.length() - 1)) {
          case 's' -> Duration.ofSeconds(n);
          case 'm' -> Duration.ofMinutes(n);
          case 'h' -> Duration.ofHours(n);
          default -> throw new IllegalArgumentException(value);
        };
      } catch (NumberFormatException | DateTimeParseException | StringIndexOutOfBoundsException e) {
        throw new IllegalArgumentException(
            "a duration must be like 500ms, 2s, 10m, 1h or PT2S, but was '" + value + "'");
      }
    }
  }

  static String time(Optional<Instant> t) {
    return t.map(i -> i.truncatedTo(ChronoUnit.SECONDS).toString()).orElse("-");
  }

  static String orDash(String s) {
    return s == null || s.isEmpty() ? "-" : s;
  }
}
