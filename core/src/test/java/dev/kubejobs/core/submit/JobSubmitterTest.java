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
package dev.kubejobs.core.submit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonArray;
import com.google.gson.JsonPrimitive;
import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobConflictException;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobKindVariant;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.RecordedRequest;
import io.kubernetes.client.openapi.ApiClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Submit: one resource per job id however often it is sent, conflicts, rejections, lost answers.
 */
class JobSubmitterTest {
  /** The test kind under a group the server does not serve. */
  private static final ResourceKind UNSERVED =
      new ResourceKind("unserved.kubejobs.dev", "v1", "testjobs", "TestJob");

  private static final String POSTS = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs";
  private static final String OBJECTS = "/apis/kubejobs.dev/v1/namespaces/etl/testjobs/[^/]+";

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE = KubeJobsHarness.testJobs().build();

  private static final MutableClock CLOCK = KUBE.clock();

  @Test
  void submittingTheSameJobTwiceCreatesOneResourceAndReturnsTheSameId() {
    ExecutionId first = KUBE.jobs().submitter().submit("job-1", TestJobSpec.in("etl"));
    ExecutionId second = KUBE.jobs().submitter().submit("job-1", TestJobSpec.in("etl"));

    assertThat(second).isEqualTo(first);
    assertThat(first.toString()).isEqualTo("test/testjobs.kubejobs.dev/etl/kj-job-1");
    assertThat(KUBE.server().store().list(TestJobKind.TYPE, "etl")).hasSize(1);
  }

  @Test
  void concurrentSubmitsOfOneJobFromTwoNodesShareOneResource() throws Exception {
    KubeJobs<TestJobSpec> otherNode = KUBE.newJobs();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<ExecutionId>> ids = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        KubeJobs<TestJobSpec> node = i % 2 == 0 ? KUBE.jobs() : otherNode;
        ids.add(
            pool.submit(
                () -> {
                  start.await();
                  return node.submitter().submit("job-1", TestJobSpec.in("etl"));
                }));
      }
      start.countDown();
      for (Future<ExecutionId> id : ids) {
        assertThat(id.get().name()).isEqualTo("kj-job-1");
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(KUBE.server().store().list(TestJobKind.TYPE, "etl")).hasSize(1);
  }

  @Test
  void submittingOverAnotherDeploymentsResourceThrowsConflictNamingTheSetting() {
    KUBE.server()
        .store()
        .create(TestJobKind.TYPE, "etl", Fixture.testJob("kj-job-1", "gravitino-b", "job-1", null));

    assertThatThrownBy(() -> KUBE.jobs().submitter().submit("job-1", TestJobSpec.in("etl")))
        .isInstanceOf(JobConflictException.class)
        .hasMessageContaining("another deployment ('gravitino-b')")
        .hasMessageContaining("'deployment' setting")
        .hasMessageContaining("namePrefix");
    assertThat(
            KUBE.server().store().get(TestJobKind.TYPE, "etl", "kj-job-1").orElseThrow().toString())
        .contains("gravitino-b");
  }

  @Test
  void submittingOverAResourceOfThisJobBeingDeletedThrowsConflict() {
    var object = Fixture.testJob("kj-job-1", "gravitino-a", "job-1", "RUNNING");
    JsonArray finalizers = new JsonArray();
    finalizers.add(new JsonPrimitive("kubejobs.dev/hold"));
    object.getAsJsonObject("metadata").add("finalizers", finalizers);
    KUBE.server().store().create(TestJobKind.TYPE, "etl", object);
    KUBE.server().store().delete(TestJobKind.TYPE, "etl", "kj-job-1");

    assertThatThrownBy(() -> KUBE.jobs().submitter().submit("job-1", TestJobSpec.in("etl")))
        .isInstanceOf(JobConflictException.class)
        .hasMessageContaining("being deleted");
  }

  @Test
  void invalidResourceIsRejectedWithTheServersMessage() {
    KUBE.server()
        .faults()
        .add(
            Fault.on("POST", POSTS)
                .status(
                    422, "Invalid", "TestJob.kubejobs.dev \"kj-job-1\" is invalid: spec.image"));

    assertThatThrownBy(() -> KUBE.jobs().submitter().submit("job-1", TestJobSpec.in("etl")))
        .isInstanceOfSatisfying(
            JobRejectedException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(JobRejectedException.Reason.INVALID);
              assertThat(e.code()).isEqualTo(422);
            })
        .hasMessageContaining("is invalid: spec.image");
    assertThat(KUBE.server().journal().count("POST", POSTS)).isEqualTo(1);
  }

  @Test
  void missingCrdIsToldApartFromMissingNamespace() {
    KubeJobs<TestJobSpec> unserved =
        KubeJobs.builder(KUBE.server().newClient(), TestJobKindVariant.ofResourceKind(UNSERVED))
            .cluster("test")
            .deployment("gravitino-a")
            .clock(CLOCK)
            .retry(Fixture.fastRetry())
            .build();
    assertThatThrownBy(() -> unserved.submitter().submit("job-1", TestJobSpec.in("etl")))
        .isInstanceOfSatisfying(
            JobRejectedException.class,
            e -> assertThat(e.reason()).isEqualTo(JobRejectedException.Reason.CRD_NOT_INSTALLED))
        .hasMessageContaining("install the operator's CRD");

    KUBE.server().requireNamespaces("etl");
    assertThatThrownBy(() -> KUBE.jobs().submitter().submit("job-1", TestJobSpec.in("nope")))
        .isInstanceOfSatisfying(
            JobRejectedException.class,
            e -> assertThat(e.reason()).isEqualTo(JobRejectedException.Reason.NAMESPACE_MISSING))
        .hasMessageContaining("namespace 'nope' does not exist");
  }

  @Test
  void forbiddenCreateIsRejectedNamingThePermission() {
    KUBE.server().rbac().deny("create", "kubejobs.dev", "testjobs");

    assertThatThrownBy(() -> KUBE.jobs().submitter().submit("job-1", TestJobSpec.in("etl")))
        .isInstanceOfSatisfying(
            JobRejectedException.class,
            e -> assertThat(e.reason()).isEqualTo(JobRejectedException.Reason.FORBIDDEN))
        .hasMessageContaining("missing permission: create testjobs.kubejobs.dev in namespace etl");
  }

  @Test
  void createAppliedThenLostIsReadBackAndAdoptedAsOneResource() {
    KUBE.server().faults().add(Fault.on("POST", POSTS).appliedThenLost());

    ExecutionId id = KUBE.jobs().submitter().submit("job-1", TestJobSpec.in("etl"));

    assertThat(id.name()).isEqualTo("kj-job-1");
    assertThat(KUBE.server().store().list(TestJobKind.TYPE, "etl")).hasSize(1);
    // Never blindly re-sent: one POST, then a read to see whether it landed.
    assertThat(KUBE.server().journal().count("POST", POSTS)).isEqualTo(1);
    assertThat(KUBE.server().journal().count("GET", OBJECTS)).isEqualTo(1);
    assertThat(KUBE.jobs().submitter().submit("job-1", TestJobSpec.in("etl"))).isEqualTo(id);
  }

  @Test
  void createNeverConfirmedDeletesWhatLandedAndSaysTheSweeperReconciles() {
    KubeJobs<TestJobSpec> lenient =
        KUBE.builder("gravitino-a").circuitBreaker(Fixture.lenientBreaker(CLOCK)).build();
    KUBE.server().faults().add(Fault.on("POST", POSTS).forever().appliedThenLost());
    // Every read-back of every attempt fails (3 attempts x 3 tries); the final check gets through.
    KUBE.server().faults().add(Fault.on("GET", OBJECTS).times(9).connectionReset());

    assertThatThrownBy(() -> lenient.submitter().submit("job-1", TestJobSpec.in("etl")))
        .isInstanceOf(ApiUnavailableException.class)
        .hasMessageContaining("could not be confirmed")
        .hasMessageContaining("the resource that landed was deleted")
        .hasMessageContaining("orphan sweeper");

    assertThat(KUBE.server().store().list(TestJobKind.TYPE, "etl")).isEmpty();
    RecordedRequest delete = KUBE.server().journal().requests("DELETE", OBJECTS).get(0);
    assertThat(delete.body()).contains("\"preconditions\"").contains("\"uid\"");
  }

  @Test
  void createNeverConfirmedWithTheDefaultBreakerSaysTheCleanUpCouldNotRunAndTheSweeperReconciles() {
    // The default breaker opens after 5 unreachable attempts, before the clean-up could run.
    KUBE.server().faults().add(Fault.on("POST", POSTS).forever().appliedThenLost());
    KUBE.server().faults().add(Fault.on("GET", OBJECTS).forever().connectionReset());

    assertThatThrownBy(() -> KUBE.jobs().submitter().submit("job-1", TestJobSpec.in("etl")))
        .isInstanceOf(ApiUnavailableException.class)
        .hasMessageContaining("could not be confirmed after 2 attempts")
        .hasMessageContaining("whether it landed could not be checked")
        .hasMessageContaining("orphan sweeper")
        .hasMessageContaining("submitting again is safe");

    // What landed stays for the sweeper: nothing could delete it. The third create was not sent.
    assertThat(KUBE.server().journal().count("POST", POSTS)).isEqualTo(2);
    assertThat(KUBE.server().store().list(TestJobKind.TYPE, "etl")).hasSize(1);
    assertThat(KUBE.server().journal().count("DELETE", OBJECTS)).isZero();
  }

  @Test
  void createNeverConfirmedLeavesAResourceThatIsNotThisJobsAlone() {
    // Before the final check, the resource of that name turns out to be another job's.
    AtomicInteger gets = new AtomicInteger();
    ApiClient client = KUBE.server().newClient();
    client.setHttpClient(
        client
            .getHttpClient()
            .newBuilder()
            .addInterceptor(
                chain -> {
                  if (chain.request().method().equals("GET") && gets.incrementAndGet() == 10) {
                    KUBE.server()
                        .store()
                        .update(
                            TestJobKind.TYPE,
                            "etl",
                            "kj-job-1",
                            o -> {
                              o.getAsJsonObject("metadata")
                                  .getAsJsonObject("annotations")
                                  .addProperty("kubejobs.dev/job-id", "someone-else");
                              return o;
                            });
                  }
                  return chain.proceed(chain.request());
                })
            .build());
    KubeJobs<TestJobSpec> lenient =
        KUBE.builder(client, "gravitino-a").circuitBreaker(Fixture.lenientBreaker(CLOCK)).build();
    KUBE.server().faults().add(Fault.on("POST", POSTS).forever().appliedThenLost());
    KUBE.server().faults().add(Fault.on("GET", OBJECTS).times(9).connectionReset());

    assertThatThrownBy(() -> lenient.submitter().submit("job-1", TestJobSpec.in("etl")))
        .isInstanceOf(ApiUnavailableException.class)
        .hasMessageContaining("not this job's and was left alone");

    assertThat(KUBE.server().store().list(TestJobKind.TYPE, "etl")).hasSize(1);
    assertThat(KUBE.server().journal().count("DELETE", OBJECTS)).isZero();
  }
}
