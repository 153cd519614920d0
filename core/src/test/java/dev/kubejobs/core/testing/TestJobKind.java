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
package dev.kubejobs.core.testing;

import com.google.gson.JsonObject;
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.FollowUp;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.testkit.ResourceType;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * A made-up job kind for core's own tests: {@code testjobs.kubejobs.dev/v1} {@code TestJob}, whose
 * operator writes {@code status.state} QUEUED, RUNNING, SUCCEEDED or FAILED, and may name the
 * driver pod in {@code status.driverPod} (else it is found by labels). A status without a state is
 * decided by the driver pod's phase (Succeeded, Failed), like an unparseable Spark status. Its
 * mapper follows the rules the Spark mappers follow (no status vs unparseable status, outcome beats
 * cancel mark, live driver of a failed job, forbidden pod lookup), so core's handling of them can
 * be tested.
 */
public final class TestJobKind implements JobKind<TestJobSpec> {
  /** The resource kind. */
  public static final ResourceKind KIND =
      new ResourceKind("kubejobs.dev", "v1", "testjobs", "TestJob");

  /** The same kind, for the fake server. */
  public static final ResourceType TYPE = ResourceType.of(KIND);

  /** The no-status timeout of the mapper. */
  public static final Duration NO_STATUS_TIMEOUT = Duration.ofSeconds(600);

  /** The driver container. */
  public static final String DRIVER_CONTAINER = "driver";

  private final JobStatusMapper mapper = TestJobKind::map;

  @Override
  public ResourceKind resourceKind() {
    return KIND;
  }

  @Override
  public String namespaceOf(TestJobSpec spec) {
    return spec.namespace();
  }

  @Override
  public JsonObject manifest(TestJobSpec spec, JobIdentity identity) {
    JsonObject labels = new JsonObject();
    spec.labels().forEach(labels::addProperty);
    identity.labels().forEach(labels::addProperty);
    JsonObject annotations = new JsonObject();
    identity.annotations().forEach(annotations::addProperty);
    JsonObject metadata = new JsonObject();
    metadata.addProperty("name", identity.name());
    metadata.addProperty("namespace", identity.namespace());
    metadata.add("labels", labels);
    metadata.add("annotations", annotations);
    JsonObject body = new JsonObject();
    body.addProperty("image", spec.image());
    JsonObject manifest = new JsonObject();
    manifest.addProperty("apiVersion", KIND.apiVersion());
    manifest.addProperty("kind", KIND.kind());
    manifest.add("metadata", metadata);
    manifest.add("spec", body);
    return manifest;
  }

  @Override
  public JobStatusMapper statusMapper() {
    return mapper;
  }

  @Override
  public Optional<String> driverPodName(ResourceSnapshot application) {
    // Like Kubeflow's status.driverInfo.podName: server data, which may be anything.
    return application
        .status()
        .filter(s -> s.has("driverPod") && s.get("driverPod").isJsonPrimitive())
        .map(s -> s.get("driverPod").getAsString());
  }

  @Override
  public String driverPodSelector(ResourceSnapshot application) {
    return "test-role=driver,test-app=" + application.name();
  }

  @Override
  public Optional<String> driverPodsSelector(Collection<ResourceSnapshot> applications) {
    StringBuilder names = new StringBuilder();
    for (ResourceSnapshot app : applications) {
      names.append(names.length() == 0 ? "" : ",").append(app.name());
    }
    return Optional.of("test-role=driver,test-app in (" + names + ")");
  }

  @Override
  public String driverContainerName(ResourceSnapshot application) {
    return DRIVER_CONTAINER;
  }

  static MappingDecision map(ResourceSnapshot app, DriverPod pod, Instant now) {
    boolean marked = app.annotations().containsKey(JobIdentity.ANNOTATION_CANCEL_REQUESTED);
    Optional<JsonObject> status = app.status();
    if (status.isEmpty()) {
      if (app.isBeingDeleted()) {
        return report(JobExecutionInfo.builder(marked ? JobStatus.CANCELLED : JobStatus.FAILED));
      }
      Instant created = app.creationTimestamp().orElse(now);
      if (Duration.between(created, now).compareTo(NO_STATUS_TIMEOUT) > 0) {
        return new MappingDecision.ReportAfter(
            new FollowUp(
                FollowUp.Action.DELETE_APPLICATION,
                JobStatus.FAILED,
                "no status from the operator within 600 s"),
            JobExecutionInfo.builder(JobStatus.QUEUED).build(),
            List.of());
      }
      return report(JobExecutionInfo.builder(marked ? JobStatus.CANCELLING : JobStatus.QUEUED));
    }
    String state =
        status.get().has("state") && status.get().get("state").isJsonPrimitive()
            ? status.get().get("state").getAsString()
            : null;
    if (state == null) {
      // Rule 1: only the driver pod can tell the outcome of a status this version cannot read.
      String warning = "status without a state this version can parse: " + status.get().keySet();
      String phase = phaseOf(pod);
      if (pod.lookup() == DriverPod.Lookup.NOT_LOOKED_UP) {
        return new MappingDecision.NeedDriverPod(
            JobExecutionInfo.builder(JobStatus.QUEUED).build(), List.of(warning));
      }
      if (phase.equals("Succeeded")) {
        return report(JobExecutionInfo.builder(JobStatus.SUCCEEDED).message("driver exited 0"));
      }
      if (phase.equals("Failed")) {
        return report(JobExecutionInfo.builder(JobStatus.FAILED).message("driver failed"));
      }
      return new MappingDecision.Report(
          JobExecutionInfo.builder(JobStatus.QUEUED).build(), List.of(warning));
    }
    switch (state) {
      case "QUEUED":
        return report(
            JobExecutionInfo.builder(marked ? JobStatus.CANCELLING : JobStatus.QUEUED)
                .operatorState(state));
      case "RUNNING":
        return report(
            JobExecutionInfo.builder(marked ? JobStatus.CANCELLING : JobStatus.STARTED)
                .operatorState(state));
      case "SUCCEEDED":
        return report(JobExecutionInfo.builder(JobStatus.SUCCEEDED).operatorState(state));
      case "FAILED":
        return failed(pod);
      default:
        return new MappingDecision.Report(
            JobExecutionInfo.builder(JobStatus.STARTED).operatorState(state).build(),
            List.of("unknown state " + state));
    }
  }

  private static String phaseOf(DriverPod pod) {
    return pod.pod()
        .flatMap(ResourceSnapshot::status)
        .filter(s -> s.has("phase"))
        .map(s -> s.get("phase").getAsString())
        .orElse("Unknown");
  }

  private static MappingDecision report(JobExecutionInfo.Builder b) {
    return MappingDecision.report(b.build());
  }

  private static MappingDecision failed(DriverPod pod) {
    JobExecutionInfo.Builder b = JobExecutionInfo.builder(JobStatus.FAILED).operatorState("FAILED");
    switch (pod.lookup()) {
      case NOT_LOOKED_UP:
        return new MappingDecision.NeedDriverPod(b.build(), List.of());
      case FOUND:
        String phase = phaseOf(pod);
        if (phase.equals("Running") || phase.equals("Pending")) {
          return new MappingDecision.ReportAfter(
              new FollowUp(
                  FollowUp.Action.DELETE_DRIVER_POD,
                  JobStatus.FAILED,
                  "failed; its driver pod still ran and was deleted"),
              b.status(JobStatus.STARTED).build(),
              List.of());
        }
        return report(b);
      case UNAVAILABLE:
        return new MappingDecision.Report(
            b.build(), List.of("driver pod not available (" + pod.reason() + ")"));
      default:
        return report(b);
    }
  }
}
