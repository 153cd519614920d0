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
package dev.kubejobs.testkit;

import dev.kubejobs.testkit.operator.FakeSparkOperator;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that runs one {@link FakeKubernetesApiServer} per test class, resets its
 * state (objects, faults, journal, RBAC, fake operators) before each test and clears faults after
 * each test, and hands tests a ready {@link ApiClient}, the fake operators and the shared {@link
 * #clock() clock}.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final FakeKubernetesExtension KUBE =
 *     FakeKubernetesExtension.builder().operator(FakeSparkOperator.Flavor.APACHE).build();
 *
 * final KubeJobs<SparkJobSpec> jobs =
 *     KubeJobs.builder(KUBE.client(), SparkOperators.apache()).clock(KUBE.clock()).build();
 *
 * @Test
 * void aStartedJobReadsStarted() {
 *   ExecutionId id = jobs.submitter().submit("nightly-1", spec);
 *   KUBE.operator().moveTo(id.namespace(), id.name(), "RunningHealthy");
 *   assertThat(jobs.statusReader().get(id).status()).isEqualTo(JobStatus.STARTED);
 * }
 * }</pre>
 *
 * <p>Time: the server, the registered operators and (when given {@code .clock(KUBE.clock())}) the
 * code under test share one {@link MutableClock}. Each transition of a registered operator moves it
 * by {@link #OPERATOR_STEP} (10 s), longer than kubejobs' 5-second status cache, so a reader sees
 * every step; a test moves it itself for longer waits ({@code KUBE.clock().advance(...)}: the
 * no-status timeout, a circuit breaker's open state, the cache). By default the clock follows the
 * system clock; {@link Builder#clock(MutableClock)} with {@link MutableClock#at} makes it stand
 * still.
 *
 * <p>Register it in a {@code static} field so the server lives for the whole class; in an instance
 * field it is started before the first test and stopped after the class. After a failing test the
 * state stays as the test left it until the next test starts, so it can be inspected.
 *
 * <p>Thread safe once started; the server, client and operators may be used from any thread.
 */
public final class FakeKubernetesExtension
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

  /**
   * How far each transition of an operator registered with {@link Builder#operator} moves the
   * shared clock: 10 seconds, twice kubejobs' default status cache TTL.
   */
  public static final Duration OPERATOR_STEP = Duration.ofSeconds(10);

  private final MutableClock clock;
  private final List<ResourceType> resources;
  private final Map<FakeSparkOperator.Flavor, UnaryOperator<FakeSparkOperator.Builder>>
      operatorSetups;
  private volatile FakeKubernetesApiServer server;
  private volatile ApiClient client;
  private volatile Map<FakeSparkOperator.Flavor, FakeSparkOperator> operators = Map.of();
  private volatile String owner;

  private FakeKubernetesExtension(Builder builder) {
    this.clock = builder.clock != null ? builder.clock : MutableClock.following(Clock.systemUTC());
    this.resources = List.copyOf(builder.resources);
    this.operatorSetups = new LinkedHashMap<>(builder.operators);
  }

  /**
   * Returns a builder for the extension.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the running server.
   *
   * @return the server
   * @throws IllegalStateException if called outside a test of the class that registers this
   */
  public FakeKubernetesApiServer server() {
    FakeKubernetesApiServer s = server;
    if (s == null) {
      throw new IllegalStateException(
          "the fake Kubernetes API server is not running; register the extension with"
              + " @RegisterExtension and use it from a test");
    }
    return s;
  }

  /**
   * Returns a client for the running server, the same one for every test of the class (see {@link
   * FakeKubernetesApiServer#newClient()}).
   *
   * @return the client
   * @throws IllegalStateException if the server is not running
   */
  public ApiClient client() {
    server();
    return client;
  }

  /**
   * Returns the clock shared by the server and the registered operators; pass it to the code under
   * test ({@code KubeJobs.builder(...).clock(KUBE.clock())}) and move it with {@link
   * MutableClock#advance(Duration)}. Available before the server starts, so a field initializer may
   * use it.
   *
   * @return the clock
   */
  public MutableClock clock() {
    return clock;
  }

  /**
   * Returns the one fake operator registered with {@link Builder#operator}, fresh for each test.
   *
   * @return the operator
   * @throws IllegalStateException if the server is not running, or not exactly one operator is
   *     registered (then use {@link #operator(FakeSparkOperator.Flavor)})
   */
  public FakeSparkOperator operator() {
    server();
    Map<FakeSparkOperator.Flavor, FakeSparkOperator> ops = operators;
    if (ops.size() != 1) {
      throw new IllegalStateException(
          ops.isEmpty()
              ? "no fake operator is registered; add .operator(FakeSparkOperator.Flavor.APACHE)"
                  + " (or KUBEFLOW) to FakeKubernetesExtension.builder()"
              : "fake operators "
                  + ops.keySet()
                  + " are registered; pick one with operator(FakeSparkOperator.Flavor)");
    }
    return ops.values().iterator().next();
  }

  /**
   * Returns the fake operator of one flavor registered with {@link Builder#operator}.
   *
   * @param flavor the operator's flavor
   * @return the operator
   * @throws IllegalStateException if the server is not running or no such operator is registered
   */
  public FakeSparkOperator operator(FakeSparkOperator.Flavor flavor) {
    server();
    FakeSparkOperator op = operators.get(flavor);
    if (op == null) {
      throw new IllegalStateException(
          "no fake "
              + flavor
              + " operator is registered; add .operator(FakeSparkOperator.Flavor."
              + flavor
              + ") to FakeKubernetesExtension.builder()");
    }
    return op;
  }

  /**
   * Returns a client-java dynamic API for a resource type on the running server, using {@link
   * #client()}.
   *
   * @param type the resource type, for example {@link ResourceType#POD}
   * @return a new dynamic API
   * @throws IllegalStateException if the server is not running
   */
  public DynamicKubernetesApi api(ResourceType type) {
    return new DynamicKubernetesApi(type.group(), type.version(), type.plural(), client());
  }

  /** Starts the server for the test class. */
  @Override
  public void beforeAll(ExtensionContext context) {
    if (start()) {
      owner = context.getUniqueId();
    }
  }

  /** Starts the server if needed and resets its state and its operators. */
  @Override
  public void beforeEach(ExtensionContext context) {
    if (server == null) {
      start();
      // JUnit closes AutoCloseable store values with the store: here after the class
      AutoCloseable stopper = this::stop;
      context
          .getParent()
          .orElse(context)
          .getStore(ExtensionContext.Namespace.create(FakeKubernetesExtension.class, this))
          .put("server", stopper);
    }
    server.reset();
    operators.values().forEach(FakeSparkOperator::reset);
  }

  /**
   * Stops the operators' timers and clears the faults, leaving objects and the journal for
   * inspection.
   */
  @Override
  public void afterEach(ExtensionContext context) {
    if (server != null) {
      operators.values().forEach(FakeSparkOperator::close);
      server.faults().clear();
    }
  }

  /** Stops the server after the class that started it (not after its nested classes). */
  @Override
  public void afterAll(ExtensionContext context) {
    if (context.getUniqueId().equals(owner)) {
      stop();
    }
  }

  private synchronized boolean start() {
    if (server != null) {
      return false;
    }
    FakeKubernetesApiServer s = FakeKubernetesApiServer.builder().clock(clock).build();
    resources.forEach(s::registerResource);
    Map<FakeSparkOperator.Flavor, FakeSparkOperator> ops = new LinkedHashMap<>();
    operatorSetups.forEach(
        (flavor, setup) ->
            ops.put(
                flavor,
                setup
                    .apply(FakeSparkOperator.builder(flavor, s).stepDuration(OPERATOR_STEP))
                    .build()));
    operators = Map.copyOf(ops);
    client = s.newClient();
    server = s;
    return true;
  }

  private synchronized void stop() {
    if (server != null) {
      operators.values().forEach(FakeSparkOperator::close);
      operators = Map.of();
      server.close();
      server = null;
      client = null;
      owner = null;
    }
  }

  /**
   * Configures a {@link FakeKubernetesExtension}.
   *
   * <p>Not thread safe.
   */
  public static final class Builder {
    private MutableClock clock;
    private final List<ResourceType> resources = new ArrayList<>();
    private final Map<FakeSparkOperator.Flavor, UnaryOperator<FakeSparkOperator.Builder>>
        operators = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Registers a custom resource type on the server.
     *
     * @param type the type
     * @return this builder
     */
    public Builder resource(ResourceType type) {
      resources.add(Objects.requireNonNull(type, "type"));
      return this;
    }

    /**
     * Registers a fake operator of one flavor, created with the server and reset before each test
     * (its resource type registered, {@link ResourceType#APACHE_SPARK_APPLICATION} or {@link
     * ResourceType#KUBEFLOW_SPARK_APPLICATION}); each of its transitions moves the shared clock by
     * {@link #OPERATOR_STEP}. Tests get it from {@link #operator()}.
     *
     * @param flavor which operator
     * @return this builder
     * @throws IllegalArgumentException if that flavor is already registered
     */
    public Builder operator(FakeSparkOperator.Flavor flavor) {
      return operator(flavor, b -> b);
    }

    /**
     * Registers a fake operator of one flavor with more settings, as {@link
     * #operator(FakeSparkOperator.Flavor)} does: {@code setup} gets a builder with the step
     * duration set, for example {@code b -> b.version("v1beta1").defaultPath(SparkAppPath.FAILED)}.
     *
     * @param flavor which operator
     * @param setup changes the operator's builder and returns it
     * @return this builder
     * @throws IllegalArgumentException if that flavor is already registered
     */
    public Builder operator(
        FakeSparkOperator.Flavor flavor, UnaryOperator<FakeSparkOperator.Builder> setup) {
      Objects.requireNonNull(flavor, "flavor");
      Objects.requireNonNull(setup, "setup");
      if (operators.containsKey(flavor)) {
        throw new IllegalArgumentException(
            "operator " + flavor + " is already registered; register each flavor once");
      }
      operators.put(flavor, setup);
      return this;
    }

    /**
     * Sets the clock shared by the server and the registered operators (default {@link
     * MutableClock#following(Clock) following} the system clock).
     *
     * @param clock the clock; {@link MutableClock#at} stands still until moved
     * @return this builder
     */
    public Builder clock(MutableClock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Builds the extension; the server starts when the test class does.
     *
     * @return the extension
     */
    public FakeKubernetesExtension build() {
      return new FakeKubernetesExtension(this);
    }
  }
}
