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

import com.google.gson.JsonParser;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.resilience.ResiliencePolicy;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceStore;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The setup core's tests on the fake API server share, as one JUnit 5 extension, the way the Java
 * Operator SDK's {@code LocallyRunOperatorExtension} hands each test a ready operator: per test,
 * the fake server is reset, the clock stands at {@link Fixture#T0}, a {@link KubeJobs} of the
 * class's job kind is built over a fresh client (fast retries for the test kind, no resilience for
 * the FakeApp kind), and, if the class asks, the same job is submitted, set running and the request
 * journal emptied. Every instance the harness built is closed after the test.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final KubeJobsHarness<TestJobSpec> KUBE =
 *     KubeJobsHarness.testJobs().submit("job-1", TestJobSpec.in("etl")).build();
 *
 * @Test
 * void aCancelledJobReadsCancelled() {
 *   KUBE.jobs().canceller().cancel(KUBE.id());
 *   assertThat(KUBE.jobs().statusReader().get(KUBE.id()).status()).isEqualTo(JobStatus.CANCELLED);
 * }
 * }</pre>
 *
 * <p>Register it in a {@code static} field: the server lives for the class, its state is fresh for
 * each test and stays as a failing test left it until the next one starts (see {@link
 * FakeKubernetesExtension}). Thread safe once a test runs.
 *
 * @param <S> the job spec type of the class's job kind
 */
public final class KubeJobsHarness<S>
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

  /** Makes the base builder of an instance: a client, the clock, a deployment, a kind. */
  @FunctionalInterface
  private interface Base<S> {
    KubeJobs.Builder<S> builder(
        ApiClient client, MutableClock clock, String deployment, JobKind<S> kind);
  }

  private final FakeKubernetesExtension kube;
  private final Instant start;
  private final Base<S> base;
  private final Supplier<JobKind<S>> kind;
  private final String deployment;
  private final UnaryOperator<KubeJobs.Builder<S>> settings;
  private final String jobId;
  private final S spec;
  private final ResourceType type;
  private final String status;
  private final boolean clearJournal;
  private final List<KubeJobs<?>> built = new CopyOnWriteArrayList<>();

  private volatile KubeJobs<S> jobs;
  private volatile ExecutionId id;

  private KubeJobsHarness(Builder<S> b) {
    FakeKubernetesExtension.Builder k =
        FakeKubernetesExtension.builder().clock(MutableClock.at(b.start));
    b.resources.forEach(k::resource);
    b.operators.forEach(k::operator);
    this.kube = k.build();
    this.start = b.start;
    this.base = b.base;
    this.kind = b.kind;
    this.deployment = b.deployment;
    this.settings = b.settings;
    this.jobId = b.jobId;
    this.spec = b.spec;
    this.type = b.resources.get(0);
    this.status = b.status;
    this.clearJournal = b.clearJournal;
  }

  /**
   * Returns a builder for classes on the test kind ({@link TestJobKind}, {@code TestJob} objects),
   * deployment {@code gravitino-a}, with {@link Fixture#builder}'s fast retries.
   *
   * @return the builder
   */
  public static Builder<TestJobSpec> testJobs() {
    return new Builder<>(TestJobKind.TYPE, TestJobKind::new, Fixture::builder, "gravitino-a")
        .startingAt(Fixture.T0);
  }

  /**
   * Returns a builder for classes on the {@link FakeAppKind} (sweep, driver logs, preflight),
   * deployment {@code prod}, with no retries or breaker so faults show at once.
   *
   * @return the builder
   */
  public static Builder<String> fakeApps() {
    return new Builder<String>(
            FakeAppKind.TYPE,
            FakeAppKind::new,
            (client, clock, deployment, kind) ->
                KubeJobs.builder(client, kind)
                    .cluster(Fixture.CLUSTER)
                    .deployment(deployment)
                    .clock(clock)
                    .resiliencePolicy(ResiliencePolicy.none()),
            "prod")
        .startingAt(Fixture.T0);
  }

  // ---------------------------------------------------------------- what a test uses

  /**
   * Returns the running fake server.
   *
   * @return the server
   */
  public FakeKubernetesApiServer server() {
    return kube.server();
  }

  /**
   * Returns the fake server's objects.
   *
   * @return the store
   */
  public ResourceStore store() {
    return kube.server().store();
  }

  /**
   * Returns the clock the server and every instance the harness builds share; it stands at the
   * start instant when each test begins.
   *
   * @return the clock
   */
  public MutableClock clock() {
    return kube.clock();
  }

  /**
   * Returns the fake operator registered with {@link Builder#operator}.
   *
   * @return the operator
   */
  public FakeSparkOperator operator() {
    return kube.operator();
  }

  /**
   * Returns this test's instance, built before the test with the class's settings.
   *
   * @return the instance
   * @throws IllegalStateException outside a test
   */
  public KubeJobs<S> jobs() {
    KubeJobs<S> j = jobs;
    if (j == null) {
      throw new IllegalStateException(
          "no KubeJobs instance: use the harness from a test of the class that registers it");
    }
    return j;
  }

  /**
   * Returns the id of the job submitted before the test.
   *
   * @return the id
   * @throws IllegalStateException if the class asked for no submit ({@link Builder#submit})
   */
  public ExecutionId id() {
    ExecutionId i = id;
    if (i == null) {
      throw new IllegalStateException(
          "no job was submitted before the test: add .submit(jobId, spec) to the harness builder");
    }
    return i;
  }

  /**
   * Returns a builder of another instance (another scheduler node, or other settings) over a fresh
   * client of the server, with the class's defaults and settings and the given deployment; build it
   * with {@link #track(KubeJobs)} around it so it is closed after the test.
   *
   * @param nodeDeployment the deployment
   * @return the builder
   */
  public KubeJobs.Builder<S> builder(String nodeDeployment) {
    return builder(kube.server().newClient(), nodeDeployment);
  }

  /**
   * Returns a builder of another instance over the given client (a scripted or authenticated one),
   * with the class's defaults and settings and the given deployment.
   *
   * @param client the client
   * @param nodeDeployment the deployment
   * @return the builder
   */
  public KubeJobs.Builder<S> builder(ApiClient client, String nodeDeployment) {
    return settings.apply(base.builder(client, clock(), nodeDeployment, kind.get()));
  }

  /**
   * Builds another instance of the class's deployment over a fresh client, closed after the test.
   *
   * @return the instance
   */
  public KubeJobs<S> newJobs() {
    return track(builder(deployment).build());
  }

  /**
   * Closes an instance after the test.
   *
   * @param instance the instance
   * @param <T> its spec type
   * @return the instance
   */
  public <T> KubeJobs<T> track(KubeJobs<T> instance) {
    built.add(Objects.requireNonNull(instance, "instance"));
    return instance;
  }

  // ---------------------------------------------------------------- JUnit callbacks

  /** Starts the fake server for the class. */
  @Override
  public void beforeAll(ExtensionContext context) {
    kube.beforeAll(context);
  }

  /**
   * Resets the server and the clock, builds the test's instance, submits the class's job, writes
   * its status and empties the journal, as the class asked.
   */
  @Override
  public void beforeEach(ExtensionContext context) {
    clock().set(start);
    kube.beforeEach(context);
    jobs = newJobs();
    id = jobId == null ? null : jobs.submitter().submit(jobId, spec);
    if (status != null) {
      store()
          .update(
              type,
              id.namespace(),
              id.name(),
              o -> {
                o.add("status", JsonParser.parseString(status));
                return o;
              });
    }
    if (clearJournal) {
      server().journal().clear();
    }
  }

  /** Closes every instance the test built, then lets the server keep its state for inspection. */
  @Override
  public void afterEach(ExtensionContext context) {
    try {
      built.forEach(KubeJobs::close);
    } finally {
      built.clear();
      jobs = null;
      id = null;
      kube.afterEach(context);
    }
  }

  /** Stops the fake server after the class. */
  @Override
  public void afterAll(ExtensionContext context) {
    kube.afterAll(context);
  }

  /**
   * Configures a {@link KubeJobsHarness}. Not thread safe.
   *
   * @param <S> the job spec type
   */
  public static final class Builder<S> {
    /** The test kind's running status ({@link TestJobKind}'s mapper reads {@code state}). */
    private static final String RUNNING = "{\"state\":\"RUNNING\"}";

    private final List<ResourceType> resources = new ArrayList<>();
    private final List<FakeSparkOperator.Flavor> operators = new ArrayList<>();
    private final Base<S> base;
    private Supplier<JobKind<S>> kind;
    private String deployment;
    private Instant start;
    private UnaryOperator<KubeJobs.Builder<S>> settings = UnaryOperator.identity();
    private String jobId;
    private S spec;
    private String status;
    private boolean clearJournal;

    private Builder(ResourceType type, Supplier<JobKind<S>> kind, Base<S> base, String deployment) {
      this.resources.add(type);
      this.kind = kind;
      this.base = base;
      this.deployment = deployment;
    }

    /**
     * Sets the job kind, made afresh for each instance (a kind may count what it is asked).
     *
     * @param jobKind makes the kind
     * @return this builder
     */
    public Builder<S> kind(Supplier<JobKind<S>> jobKind) {
      this.kind = Objects.requireNonNull(jobKind, "kind");
      return this;
    }

    /**
     * Registers one more resource type on the fake server.
     *
     * @param type the type
     * @return this builder
     */
    public Builder<S> resource(ResourceType type) {
      resources.add(Objects.requireNonNull(type, "resource"));
      return this;
    }

    /**
     * Registers a fake Spark operator on the server.
     *
     * @param flavor its flavor
     * @return this builder
     */
    public Builder<S> operator(FakeSparkOperator.Flavor flavor) {
      operators.add(Objects.requireNonNull(flavor, "operator"));
      return this;
    }

    /**
     * Sets the deployment of the test's instance.
     *
     * @param name the deployment
     * @return this builder
     */
    public Builder<S> deployment(String name) {
      this.deployment = Objects.requireNonNull(name, "deployment");
      return this;
    }

    /**
     * Sets where the clock stands when each test starts; default {@link Fixture#T0}.
     *
     * @param instant the start
     * @return this builder
     */
    public Builder<S> startingAt(Instant instant) {
      this.start = Objects.requireNonNull(instant, "start");
      return this;
    }

    /**
     * Adds settings to every instance the harness builds, for example {@code b ->
     * b.statusCacheTtl(Duration.ZERO)}.
     *
     * @param more changes the instance's builder
     * @return this builder
     */
    public Builder<S> settings(UnaryOperator<KubeJobs.Builder<S>> more) {
      Objects.requireNonNull(more, "settings");
      UnaryOperator<KubeJobs.Builder<S>> before = settings;
      this.settings = b -> more.apply(before.apply(b));
      return this;
    }

    /**
     * Submits a job with the test's instance before each test; {@link KubeJobsHarness#id()} is then
     * its id.
     *
     * @param job the job id
     * @param jobSpec the spec
     * @return this builder
     */
    public Builder<S> submit(String job, S jobSpec) {
      this.jobId = Objects.requireNonNull(job, "jobId");
      this.spec = Objects.requireNonNull(jobSpec, "spec");
      return this;
    }

    /**
     * Sets the submitted job running before each test: after the submit its status is the test
     * kind's {@code {"state":"RUNNING"}}, and the journal is emptied ({@link #clearJournal()}), so
     * a test starts on a running job and its journal holds only its own requests. Needs {@link
     * #submit} and the test kind ({@link KubeJobsHarness#testJobs()}).
     *
     * @return this builder
     */
    public Builder<S> running() {
      this.status = RUNNING;
      return clearJournal();
    }

    /**
     * Empties the server's request journal before each test, once the class's job is submitted (and
     * set {@link #running()}), so the journal holds only the test's own requests.
     *
     * @return this builder
     */
    public Builder<S> clearJournal() {
      this.clearJournal = true;
      return this;
    }

    /**
     * Builds the harness; register it with {@code @RegisterExtension} in a static field.
     *
     * @return the harness
     * @throws IllegalStateException if {@link #running()} was asked without a submit or on another
     *     kind than the test kind
     */
    public KubeJobsHarness<S> build() {
      if (status != null && (jobId == null || !resources.get(0).equals(TestJobKind.TYPE))) {
        throw new IllegalStateException(
            "running() sets the test kind's submitted job running: build the harness with"
                + " KubeJobsHarness.testJobs() and .submit(jobId, spec)");
      }
      return new KubeJobsHarness<>(this);
    }
  }
}
