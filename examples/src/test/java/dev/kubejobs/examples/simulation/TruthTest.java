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
package dev.kubejobs.examples.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.testkit.ResourceEvent;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.operator.FakeSparkOperator.Flavor;
import dev.kubejobs.testkit.operator.SparkAppPath;
import org.junit.jupiter.api.Test;

/**
 * The simulation's judge: the terminal statuses {@link Truth} allows for a sequence of server
 * events, so a simulation that finds no violation is not one that cannot see any.
 */
class TruthTest {
  private static final ResourceType KUBEFLOW =
      new ResourceType("sparkoperator.k8s.io", "v1beta2", "sparkapplications", "SparkApplication");
  private static final String UID = "uid-1";

  private final EventLog log = new EventLog();
  private long rv = 1000;

  @Test
  void outcomeWrittenBeforeTheDeletionStandsAgainstALaterCancel() {
    app(ResourceEvent.Kind.ADDED, null, false, false);
    app(ResourceEvent.Kind.MODIFIED, "RUNNING", false, false);
    app(ResourceEvent.Kind.MODIFIED, "COMPLETED", false, false);
    app(ResourceEvent.Kind.MODIFIED, "COMPLETED", true, false);
    app(ResourceEvent.Kind.DELETED, "COMPLETED", true, true);

    Truth truth = judge(SparkAppPath.HAPPY);

    assertThat(truth.allowed()).containsExactly(JobStatus.SUCCEEDED);
  }

  @Test
  void markedDeletionOfARunningJobIsCancelled() {
    app(ResourceEvent.Kind.ADDED, null, false, false);
    app(ResourceEvent.Kind.MODIFIED, "RUNNING", false, false);
    app(ResourceEvent.Kind.MODIFIED, "RUNNING", true, false);
    app(ResourceEvent.Kind.DELETED, "RUNNING", true, true);

    assertThat(judge(SparkAppPath.HAPPY).allowed()).containsExactly(JobStatus.CANCELLED);
  }

  @Test
  void unmarkedDeletionWithoutAStatusIsTheNoStatusFailure() {
    app(ResourceEvent.Kind.ADDED, null, false, false);
    app(ResourceEvent.Kind.DELETED, null, false, true);

    assertThat(judge(SparkAppPath.OPERATOR_DOWN).allowed()).containsExactly(JobStatus.FAILED);
  }

  @Test
  void unmarkedDeletionOfAJobWithAStatusAllowsNothing() {
    app(ResourceEvent.Kind.ADDED, null, false, false);
    app(ResourceEvent.Kind.MODIFIED, "SUBMITTED", false, false);
    app(ResourceEvent.Kind.DELETED, "SUBMITTED", false, true);

    Truth truth = judge(SparkAppPath.HAPPY);

    assertThat(truth.allowed()).isEmpty();
    assertThat(truth.story()).contains("no mark");
  }

  @Test
  void driverExitBeforeTheMarkDecidesAnUnparseableStatus() {
    app(ResourceEvent.Kind.ADDED, null, false, false);
    pod(0);
    app(ResourceEvent.Kind.MODIFIED, null, true, false);
    app(ResourceEvent.Kind.DELETED, null, true, true);

    assertThat(judge(SparkAppPath.UNPARSEABLE_STATUS).allowed())
        .containsExactly(JobStatus.SUCCEEDED);
    assertThat(judge(SparkAppPath.HAPPY).allowed())
        .containsExactlyInAnyOrder(JobStatus.SUCCEEDED, JobStatus.CANCELLED);
  }

  @Test
  void failedFirstAttemptOfARestartingPathIsNotTheOutcome() {
    app(ResourceEvent.Kind.ADDED, null, false, false);
    app(ResourceEvent.Kind.MODIFIED, "FAILED", false, false);
    app(ResourceEvent.Kind.MODIFIED, "PENDING_RERUN", false, false);
    app(ResourceEvent.Kind.MODIFIED, "COMPLETED", false, false);

    assertThat(judge(SparkAppPath.RESTARTED_THEN_SUCCEEDED).allowed())
        .containsExactly(JobStatus.SUCCEEDED);
  }

  @Test
  void eventsAreJudgedInResourceVersionOrderNotArrivalOrder() {
    app(ResourceEvent.Kind.ADDED, null, false, false);
    rv += 2;
    app(ResourceEvent.Kind.DELETED, "RUNNING", true, true); // arrives first, happened last
    rv -= 2;
    app(ResourceEvent.Kind.MODIFIED, "COMPLETED", false, false);

    assertThat(judge(SparkAppPath.HAPPY).allowed()).containsExactly(JobStatus.SUCCEEDED);
  }

  @Test
  void anEndMarkedApplicationDeletedBeforeAnyStatusIsTheNoStatusFailure() {
    app(ResourceEvent.Kind.ADDED, null, false, false);
    app(ResourceEvent.Kind.MODIFIED, null, JobIdentity.ANNOTATION_ENDED, false);
    app(ResourceEvent.Kind.DELETED, null, JobIdentity.ANNOTATION_ENDED, true);

    Truth truth = judge(SparkAppPath.OPERATOR_DOWN);

    assertThat(truth.allowed()).containsExactly(JobStatus.FAILED);
    assertThat(truth.story()).contains("ended@");
    assertThat(truth.operatorOutcome()).isNull();
  }

  @Test
  void whatTheOperatorDidAfterAnEndMarkWinsOverTheMark() {
    app(ResourceEvent.Kind.ADDED, null, false, false);
    app(ResourceEvent.Kind.MODIFIED, null, JobIdentity.ANNOTATION_ENDED, false);
    app(ResourceEvent.Kind.MODIFIED, "RUNNING", JobIdentity.ANNOTATION_ENDED, false);
    app(ResourceEvent.Kind.MODIFIED, "COMPLETED", JobIdentity.ANNOTATION_ENDED, false);

    Truth truth = judge(SparkAppPath.HAPPY);

    assertThat(truth.allowed()).containsExactly(JobStatus.SUCCEEDED);
    assertThat(truth.operatorOutcome()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(truth.story()).contains("operator-acted-after-end-mark@");
  }

  @Test
  void anEndMarkedApplicationDeletedAfterTheOperatorWroteAStatusAllowsNothing() {
    app(ResourceEvent.Kind.ADDED, null, false, false);
    app(ResourceEvent.Kind.MODIFIED, null, JobIdentity.ANNOTATION_ENDED, false);
    app(ResourceEvent.Kind.MODIFIED, "RUNNING", JobIdentity.ANNOTATION_ENDED, false);
    app(ResourceEvent.Kind.DELETED, "RUNNING", JobIdentity.ANNOTATION_ENDED, true);

    Truth truth = judge(SparkAppPath.HAPPY);

    assertThat(truth.allowed()).isEmpty();
    assertThat(truth.story()).contains("kubejobs deleted an application with a status");
  }

  @Test
  void anEndMarkOnAnApplicationWithAStatusAllowsNothing() {
    app(ResourceEvent.Kind.ADDED, null, false, false);
    app(ResourceEvent.Kind.MODIFIED, "SUBMITTED", false, false);
    app(ResourceEvent.Kind.MODIFIED, "SUBMITTED", JobIdentity.ANNOTATION_ENDED, false);
    app(ResourceEvent.Kind.MODIFIED, "COMPLETED", JobIdentity.ANNOTATION_ENDED, false);

    Truth truth = judge(SparkAppPath.HAPPY);

    assertThat(truth.allowed()).isEmpty();
    assertThat(truth.story()).contains("ended an application that had a status");
  }

  private Truth judge(SparkAppPath path) {
    return Truth.of(log.ordered(), UID, Flavor.KUBEFLOW, path);
  }

  private void app(ResourceEvent.Kind kind, String state, boolean marked, boolean deleted) {
    app(kind, state, marked ? JobIdentity.ANNOTATION_CANCEL_REQUESTED : null, deleted);
  }

  /** An event of the application carrying {@code annotation} (a mark's name), or none when null. */
  private void app(ResourceEvent.Kind kind, String state, String annotation, boolean deleted) {
    JsonObject o = new JsonObject();
    JsonObject meta = new JsonObject();
    meta.addProperty("name", "kj-job-0");
    meta.addProperty("namespace", "sim");
    meta.addProperty("uid", UID);
    meta.addProperty("resourceVersion", Long.toString(++rv));
    JsonObject annotations = new JsonObject();
    if (annotation != null) {
      annotations.addProperty(annotation, "2026-01-01T00:00:00Z");
    }
    meta.add("annotations", annotations);
    if (deleted && kind != ResourceEvent.Kind.DELETED) {
      meta.addProperty("deletionTimestamp", "2026-01-01T00:00:00Z");
    }
    o.add("metadata", meta);
    if (state != null) {
      JsonObject status = new JsonObject();
      JsonObject app = new JsonObject();
      app.addProperty("state", state);
      status.add("applicationState", app);
      o.add("status", status);
    }
    log.onEvent(new ResourceEvent(kind, KUBEFLOW, o));
  }

  private void pod(int exitCode) {
    JsonObject o = new JsonObject();
    JsonObject meta = new JsonObject();
    meta.addProperty("name", "kj-job-0-driver");
    meta.addProperty("namespace", "sim");
    meta.addProperty("uid", "pod-uid");
    meta.addProperty("resourceVersion", Long.toString(++rv));
    JsonArray owners = new JsonArray();
    JsonObject owner = new JsonObject();
    owner.addProperty("uid", UID);
    owners.add(owner);
    meta.add("ownerReferences", owners);
    o.add("metadata", meta);
    JsonObject terminated = new JsonObject();
    terminated.addProperty("exitCode", exitCode);
    JsonObject state = new JsonObject();
    state.add("terminated", terminated);
    JsonObject container = new JsonObject();
    container.add("state", state);
    JsonArray statuses = new JsonArray();
    statuses.add(container);
    JsonObject status = new JsonObject();
    status.add("containerStatuses", statuses);
    o.add("status", status);
    log.onEvent(new ResourceEvent(ResourceEvent.Kind.MODIFIED, ResourceType.POD, o));
  }
}
