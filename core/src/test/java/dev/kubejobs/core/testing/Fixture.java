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

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceType;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.retry.RetryConfig;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/** Helpers shared by core's tests on the fake server. */
public final class Fixture {
  /** The cluster name of test instances. */
  public static final String CLUSTER = "test";

  /** When every test starts. */
  public static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private Fixture() {}

  /** A retry with the default rules but 1 ms waits, so tests do not wait real seconds. */
  public static RetryConfig fastRetry() {
    return RetryConfig.from(dev.kubejobs.core.resilience.Resilience4jPolicy.defaultRetryConfig())
        .intervalBiFunction(
            dev.kubejobs.core.resilience.Resilience4jPolicy.retryAfterAware(
                attempt -> 1L, Duration.ofSeconds(2)))
        .build();
  }

  /** A builder over the server with the test kind, fast retries and the given clock. */
  public static KubeJobs.Builder<TestJobSpec> builder(
      FakeKubernetesApiServer server, MutableClock clock, String deployment) {
    return builder(server.newClient(), clock, deployment);
  }

  /** A builder over a client with the test kind, fast retries and the given clock. */
  public static KubeJobs.Builder<TestJobSpec> builder(
      ApiClient client, MutableClock clock, String deployment) {
    return builder(client, clock, deployment, new TestJobKind());
  }

  /** A builder over the server with a kind of test jobs, fast retries and the given clock. */
  public static KubeJobs.Builder<TestJobSpec> builder(
      FakeKubernetesApiServer server,
      MutableClock clock,
      String deployment,
      dev.kubejobs.core.spi.JobKind<TestJobSpec> kind) {
    return builder(server.newClient(), clock, deployment, kind);
  }

  /** A builder over a client with a kind of test jobs, fast retries and the given clock. */
  public static KubeJobs.Builder<TestJobSpec> builder(
      ApiClient client,
      MutableClock clock,
      String deployment,
      dev.kubejobs.core.spi.JobKind<TestJobSpec> kind) {
    return KubeJobs.builder(client, kind)
        .cluster(CLUSTER)
        .deployment(deployment)
        .clock(clock)
        .requestTimeout(Duration.ofSeconds(5))
        .retry(fastRetry())
        .circuitBreaker(
            CircuitBreakerConfig.from(
                    dev.kubejobs.core.resilience.Resilience4jPolicy.defaultCircuitBreakerConfig(
                        clock))
                .build());
  }

  /**
   * A builder for a node whose requests {@code hooks} script, with a breaker that never opens (a
   * script may lose many answers), the test kind, fast retries and the given clock.
   */
  public static KubeJobs.Builder<TestJobSpec> scripted(
      FakeKubernetesApiServer server, ClientHooks hooks, MutableClock clock, String deployment) {
    return builder(hooks.client(server), clock, deployment).circuitBreaker(lenientBreaker(clock));
  }

  /** A breaker config that never opens within a test. */
  public static CircuitBreakerConfig lenientBreaker(MutableClock clock) {
    return CircuitBreakerConfig.from(
            dev.kubejobs.core.resilience.Resilience4jPolicy.defaultCircuitBreakerConfig(clock))
        .minimumNumberOfCalls(1000)
        .slidingWindowSize(1000)
        .build();
  }

  /** A TestJob object as an operator would have left it, for {@code store().create}. */
  public static JsonObject testJob(String name, String deployment, String jobId, String state) {
    JsonObject o =
        JsonParser.parseString(
                "{\"apiVersion\":\"kubejobs.dev/v1\",\"kind\":\"TestJob\",\"metadata\":{\"name\":\""
                    + name
                    + "\",\"labels\":{\"app.kubernetes.io/managed-by\":\"kubejobs\","
                    + "\"kubejobs.dev/deployment\":\""
                    + deployment
                    + "\",\"kubejobs.dev/job-id\":\""
                    + jobId
                    + "\"},\"annotations\":{\"kubejobs.dev/job-id\":\""
                    + jobId
                    + "\"}},\"spec\":{\"image\":\"busybox\"}}")
            .getAsJsonObject();
    if (state != null) {
      o.add("status", JsonParser.parseString("{\"state\":\"" + state + "\"}"));
    }
    return o;
  }

  /** Sets {@code status} of a stored object. */
  public static void setStatus(
      FakeKubernetesApiServer server, String namespace, String name, String statusJson) {
    update(server, namespace, name, o -> o.add("status", JsonParser.parseString(statusJson)));
  }

  /**
   * Puts a finalizer ({@code kubejobs.dev/hold}) on a stored test job, so that a delete leaves it
   * being deleted (a {@code deletionTimestamp}) instead of gone.
   */
  public static void holdWithFinalizer(
      FakeKubernetesApiServer server, String namespace, String name) {
    update(
        server,
        namespace,
        name,
        o -> {
          JsonArray finalizers = new JsonArray();
          finalizers.add(new JsonPrimitive("kubejobs.dev/hold"));
          o.getAsJsonObject("metadata").add("finalizers", finalizers);
        });
  }

  /** Changes a stored test job (a label), so its resourceVersion is no longer the one read. */
  public static void touch(FakeKubernetesApiServer server, String namespace, String name) {
    update(
        server,
        namespace,
        name,
        o ->
            putInMetadata(
                o,
                "labels",
                "kubejobs.dev/touched",
                o.getAsJsonObject("metadata").get("resourceVersion").getAsString()));
  }

  /** Puts an annotation on a stored test job. */
  public static void annotate(
      FakeKubernetesApiServer server, String namespace, String name, String key, String value) {
    update(server, namespace, name, o -> putInMetadata(o, "annotations", key, value));
  }

  /** Puts {@code key} = {@code value} in the object's {@code metadata.<map>}, made if missing. */
  private static void putInMetadata(JsonObject o, String map, String key, String value) {
    JsonObject meta = o.getAsJsonObject("metadata");
    JsonObject entries = meta.has(map) ? meta.getAsJsonObject(map) : new JsonObject();
    entries.addProperty(key, value);
    meta.add(map, entries);
  }

  /** Changes a stored test job in place. */
  private static void update(
      FakeKubernetesApiServer server,
      String namespace,
      String name,
      java.util.function.Consumer<JsonObject> change) {
    server
        .store()
        .update(
            TestJobKind.TYPE,
            namespace,
            name,
            o -> {
              change.accept(o);
              return o;
            });
  }

  /** A driver pod of a test job in a phase. */
  public static JsonObject driverPod(String name, String app, String phase) {
    return JsonParser.parseString(
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
                + name
                + "\",\"labels\":{\"test-role\":\"driver\",\"test-app\":\""
                + app
                + "\"}},\"spec\":{\"containers\":[{\"name\":\"driver\",\"image\":\"x\"}]},"
                + "\"status\":{\"phase\":\""
                + phase
                + "\"}}")
        .getAsJsonObject();
  }

  /**
   * Gives a stored test job a status this version cannot parse and a driver pod ({@code
   * <name>-driver}) in {@code phase}: the driver pod decides the job's outcome.
   */
  public static void driverDecides(
      FakeKubernetesApiServer server, String namespace, String name, String phase) {
    setStatus(server, namespace, name, "{\"phase\":\"Done\"}");
    server.store().create(ResourceType.POD, namespace, driverPod(name + "-driver", name, phase));
  }

  /** Moves a stored pod to {@code phase}. */
  public static void setPodPhase(
      FakeKubernetesApiServer server, String namespace, String pod, String phase) {
    server
        .store()
        .update(
            ResourceType.POD,
            namespace,
            pod,
            o -> {
              o.getAsJsonObject("status").addProperty("phase", phase);
              return o;
            });
  }

  /** Annotations of a stored object. */
  public static Map<String, String> annotations(
      FakeKubernetesApiServer server, String namespace, String name) {
    JsonObject o = server.store().get(TestJobKind.TYPE, namespace, name).orElseThrow();
    Map<String, String> out = new java.util.LinkedHashMap<>();
    JsonObject a = o.getAsJsonObject("metadata").getAsJsonObject("annotations");
    if (a != null) {
      a.entrySet().forEach(e -> out.put(e.getKey(), e.getValue().getAsString()));
    }
    return out;
  }
}
