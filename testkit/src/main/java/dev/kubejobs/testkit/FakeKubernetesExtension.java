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

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that runs one {@link FakeKubernetesApiServer} per test class, resets its
 * state (objects, faults, journal, RBAC) before each test and clears faults after each test, and
 * hands tests a ready {@link ApiClient}.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final FakeKubernetesExtension kube =
 *     FakeKubernetesExtension.builder().resource(SPARK_APPLICATION).clock(clock).build();
 *
 * @Test
 * void createsApplication() {
 *   new MyScheduler(kube.client()).submit(...);
 *   assertThat(kube.server().store().list(SPARK_APPLICATION, "jobs")).hasSize(1);
 * }
 * }</pre>
 *
 * <p>Register it in a {@code static} field so the server lives for the whole class; in an instance
 * field it is started before the first test and stopped after the class. After a failing test the
 * state stays as the test left it until the next test starts, so it can be inspected.
 *
 * <p>Thread safe once started; the server and client may be used from any thread.
 */
public final class FakeKubernetesExtension
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

  private final Clock clock;
  private final List<ResourceType> resources;
  private volatile FakeKubernetesApiServer server;
  private volatile ApiClient client;
  private volatile String owner;

  private FakeKubernetesExtension(Builder builder) {
    this.clock = builder.clock;
    this.resources = List.copyOf(builder.resources);
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

  /** Starts the server if needed and resets its state. */
  @Override
  public void beforeEach(ExtensionContext context) {
    if (server == null) {
      start();
      context
          .getParent()
          .orElse(context)
          .getStore(ExtensionContext.Namespace.create(FakeKubernetesExtension.class, this))
          .put("server", (ExtensionContext.Store.CloseableResource) this::stop);
    }
    server.reset();
  }

  /** Clears the faults, leaving objects and the journal for inspection. */
  @Override
  public void afterEach(ExtensionContext context) {
    if (server != null) {
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
    client = s.newClient();
    server = s;
    return true;
  }

  private synchronized void stop() {
    if (server != null) {
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
    private Clock clock = Clock.systemUTC();
    private final List<ResourceType> resources = new ArrayList<>();

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
     * Sets the server's clock (default {@link Clock#systemUTC()}).
     *
     * @param clock the clock, typically a {@link MutableClock}
     * @return this builder
     */
    public Builder clock(Clock clock) {
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
