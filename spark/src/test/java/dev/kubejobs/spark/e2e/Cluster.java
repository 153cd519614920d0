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
package dev.kubejobs.spark.e2e;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.FollowUp;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.spark.SparkJobSpec;
import dev.kubejobs.testkit.FakeKubernetesApiServer;
import dev.kubejobs.testkit.MutableClock;
import dev.kubejobs.testkit.ResourceType;
import dev.kubejobs.testkit.operator.FakeSparkOperator;
import dev.kubejobs.testkit.operator.SparkAppPath;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A fake cluster with a fake Spark operator, and the part of core's status reading the tests need:
 * map with the driver pod not looked up, look it up when the mapper asks, and carry out follow-ups
 * when the test says so. Reads and writes go straight to the fake server's store.
 */
final class Cluster implements AutoCloseable {
  static final String NS = "jobs";
  static final Instant START = Instant.parse("2026-03-01T10:00:00Z");

  final MutableClock clock = MutableClock.at(START);
  final FakeKubernetesApiServer server;
  final FakeSparkOperator operator;
  final JobKind<SparkJobSpec> kind;

  Cluster(
      FakeSparkOperator.Flavor flavor, String version, JobKind<SparkJobSpec> kind, boolean trim) {
    this.server = FakeKubernetesApiServer.builder().clock(clock).build();
    FakeSparkOperator.Builder b =
        FakeSparkOperator.builder(flavor, server)
            .newerState(
                flavor == FakeSparkOperator.Flavor.APACHE ? "DriverWarmingUp" : "HIBERNATING");
    if (version != null) {
      b.version(version);
    }
    if (trim) {
      b.trimHistoryOnRestart(true);
    }
    this.operator = b.build();
    this.kind = kind;
  }

  /** Creates the manifest the kind builds for the spec, labelled with the fake operator's path. */
  String submit(SparkJobSpec spec, String jobId, SparkAppPath path) {
    return submit(spec, jobId, path, false);
  }

  /** As {@link #submit(SparkJobSpec, String, SparkAppPath)}, optionally with a driver sidecar. */
  String submit(SparkJobSpec spec, String jobId, SparkAppPath path, boolean sidecar) {
    JobIdentity identity = JobIdentity.of("kj", "prod", NS, jobId);
    JsonObject manifest = kind.manifest(spec, identity);
    JsonObject labels = manifest.getAsJsonObject("metadata").getAsJsonObject("labels");
    labels.addProperty(FakeSparkOperator.PATH_LABEL, path.name());
    if (sidecar) {
      labels.addProperty(FakeSparkOperator.SIDECAR_LABEL, "true");
    }
    server.store().create(operator.resourceType(), NS, manifest);
    return identity.name();
  }

  Optional<JsonObject> app(String name) {
    return server.store().get(operator.resourceType(), NS, name);
  }

  /**
   * Maps the job's status as {@code JobStatusMapper}'s protocol asks: the pod not looked up, then
   * looked up and mapped once more if the mapper asks for it.
   */
  MappingDecision observe(String name) {
    ResourceSnapshot app = ResourceSnapshot.of(app(name).orElseThrow());
    MappingDecision alone = kind.statusMapper().map(app, DriverPod.notLookedUp(), clock.instant());
    if (!alone.needsDriverPod()) {
      return alone;
    }
    MappingDecision withPod = kind.statusMapper().map(app, lookUpDriver(app), clock.instant());
    if (withPod == null || withPod.needsDriverPod()) {
      throw new AssertionError("the mapper broke its protocol on " + name + ": " + withPod);
    }
    return withPod;
  }

  DriverPod lookUpDriver(ResourceSnapshot app) {
    Optional<String> name = kind.driverPodName(app);
    if (name.isPresent()) {
      return server
          .store()
          .get(ResourceType.POD, NS, name.get())
          .map(p -> DriverPod.found(ResourceSnapshot.of(p)))
          .orElse(DriverPod.absent());
    }
    Map<String, String> selector = new LinkedHashMap<>();
    for (String part : kind.driverPodSelector(app).split(",")) {
      String[] kv = part.split("=", 2);
      selector.put(kv[0], kv[1]);
    }
    return server.store().list(ResourceType.POD, NS).stream()
        .filter(p -> matches(p, selector))
        .max(
            Comparator.comparing(
                p -> p.getAsJsonObject("metadata").get("creationTimestamp").getAsString()))
        .map(p -> DriverPod.found(ResourceSnapshot.of(p)))
        .orElse(DriverPod.absent());
  }

  private static boolean matches(JsonObject pod, Map<String, String> selector) {
    JsonElement labels = pod.getAsJsonObject("metadata").get("labels");
    if (labels == null || !labels.isJsonObject()) {
      return false;
    }
    for (Map.Entry<String, String> e : selector.entrySet()) {
      JsonElement v = labels.getAsJsonObject().get(e.getKey());
      if (v == null || !v.getAsString().equals(e.getValue())) {
        return false;
      }
    }
    return true;
  }

  /** Carries out a follow-up as core does: delete, and report the outcome once it is done. */
  void carryOut(String name, FollowUp followUp) {
    ResourceSnapshot app = ResourceSnapshot.of(app(name).orElseThrow());
    if (followUp.action() == FollowUp.Action.DELETE_APPLICATION) {
      server.store().delete(operator.resourceType(), NS, name);
    } else {
      DriverPod pod = lookUpDriver(app);
      pod.pod().ifPresent(p -> server.store().delete(ResourceType.POD, NS, p.name()));
    }
  }

  /**
   * Moves the application one transition at a time to the end of its path, recording after each one
   * {@code transition=STATUS}, and carrying out a {@code DELETE_DRIVER_POD} follow-up at once
   * (recorded as {@code STATUS>deleted driver>OUTCOME}).
   */
  List<String> drive(String name) {
    List<String> seen = new ArrayList<>();
    seen.add("created=" + describe(name));
    List<String> remaining;
    while (!(remaining = operator.remainingTransitions(NS, name)).isEmpty()) {
      String transition = remaining.get(0);
      operator.advance(NS, name);
      clock.advance(Duration.ofSeconds(10));
      seen.add(transition + "=" + describe(name));
    }
    return seen;
  }

  String describe(String name) {
    MappingDecision info = observe(name);
    if (info.pendingFollowUp().isPresent()
        && info.pendingFollowUp().get().action() == FollowUp.Action.DELETE_DRIVER_POD) {
      FollowUp f = info.pendingFollowUp().get();
      carryOut(name, f);
      MappingDecision after = observe(name);
      return info.info().status() + ">deleted driver>" + after.info().status();
    }
    return info.info().status().toString();
  }

  @Override
  public void close() {
    operator.close();
    server.close();
  }
}
