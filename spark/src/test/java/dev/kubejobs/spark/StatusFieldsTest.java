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
package dev.kubejobs.spark;

import static dev.kubejobs.spark.Fixtures.at;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.internal.kube.FieldProjection;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.spark.Fixtures.App;
import dev.kubejobs.spark.Fixtures.Pod;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The status reader keeps only {@link JobKind#statusFields()} (and metadata) of each listed copy:
 * both kinds must answer exactly the same from those fields as from the whole application — every
 * mapping (with each kind of driver pod) and every driver pod method. The applications are whole
 * manifests as the kinds write them (spec, Spark conf, pod templates), with random statuses,
 * restart policies, marks, deletions, driver pod names and a real server's {@code managedFields}.
 * Each case is built from its own seed, printed in its name.
 */
class StatusFieldsTest {
  private static final JobKind<SparkJobSpec> APACHE = SparkOperators.apache();
  private static final JobKind<SparkJobSpec> KUBEFLOW = SparkOperators.kubeflow();

  private static final long SEED = 20_261_203L;
  private static final int CASES = 300;

  /** A kind and the whole applications it writes, from a seed. */
  enum Operator {
    APACHE(StatusFieldsTest.APACHE, StatusFieldsTest::apache),
    KUBEFLOW(StatusFieldsTest.KUBEFLOW, StatusFieldsTest::kubeflow);

    final JobKind<SparkJobSpec> kind;
    final Function<Random, JsonObject> application;

    Operator(JobKind<SparkJobSpec> kind, Function<Random, JsonObject> application) {
      this.kind = kind;
      this.application = application;
    }
  }

  static LongStream seeds() {
    return new Random(SEED).longs(CASES);
  }

  static Stream<Arguments> cases() {
    return Stream.of(Operator.values())
        .flatMap(op -> seeds().mapToObj(seed -> Arguments.of(op, seed)));
  }

  @ParameterizedTest(name = "{0} seed {1}")
  @MethodSource("cases")
  void eachKindAnswersTheSameFromItsStatusFieldsAlone(Operator op, long seed) throws IOException {
    JsonObject whole = op.application.apply(new Random(seed));

    assertAnswersTheSame(op.kind, whole, op.kind.statusFields());
  }

  /**
   * The cases above could not fail if they never reached what the fields keep: without any one of
   * the fields some case must answer otherwise.
   */
  @ParameterizedTest
  @EnumSource(Operator.class)
  void everyStatusFieldOfEachKindChangesSomeAnswerWhenLeftOut(Operator op) {
    JobKind<SparkJobSpec> kind = op.kind;
    assertThat(kind.statusFields()).isNotEmpty();
    for (String left : kind.statusFields()) {
      Set<String> fewer = new HashSet<>(kind.statusFields());
      fewer.remove(left);
      if (fewer.isEmpty()) {
        fewer.add("nothing.at.all"); // empty would keep everything
      }
      FieldProjection projection = FieldProjection.of(fewer);
      boolean changed =
          seeds()
              .anyMatch(
                  seed -> {
                    JsonObject whole = op.application.apply(new Random(seed));
                    return !answers(kind, snapshot(whole))
                        .equals(answers(kind, snapshot(projection.apply(whole))));
                  });
      assertThat(changed).as("%s without %s", kind, left).isTrue();
    }
  }

  private static void assertAnswersTheSame(
      JobKind<SparkJobSpec> kind, JsonObject whole, Set<String> fields) throws IOException {
    FieldProjection projection = FieldProjection.of(fields);
    JsonObject read = projection.read(whole.toString().getBytes(StandardCharsets.UTF_8)).toGson();

    assertThat(read).isEqualTo(projection.apply(whole));
    assertThat(read.getAsJsonObject("metadata").has("managedFields")).isFalse();
    assertThat(read.getAsJsonObject("spec").has("sparkConf")).isFalse();
    assertThat(answers(kind, snapshot(read))).isEqualTo(answers(kind, snapshot(whole)));
  }

  /** Everything a kind answers about an application. */
  private static List<Object> answers(JobKind<SparkJobSpec> kind, ResourceSnapshot app) {
    List<Object> out = new ArrayList<>();
    for (DriverPod pod : pods()) {
      out.add(kind.statusMapper().map(app, pod, at(90)));
    }
    out.add(kind.driverPodName(app));
    out.add(kind.driverPodSelector(app));
    out.add(kind.driverPodsSelector(List.of(app)));
    out.add(kind.driverContainerName(app));
    return out;
  }

  private static List<DriverPod> pods() {
    return List.of(
        DriverPod.notLookedUp(),
        DriverPod.absent(),
        DriverPod.unavailable("pods is forbidden"),
        DriverPod.found(Pod.named("p").running(at(1)).snapshot()),
        DriverPod.found(Pod.named("p").terminated(0, at(1), at(2)).snapshot()),
        DriverPod.found(Pod.named("p").terminated(1, at(1), at(2)).snapshot()));
  }

  private static JsonObject apache(Random random) {
    List<String> states = new ArrayList<>();
    for (int i = 1 + random.nextInt(8); i > 0; i--) {
      states.add(pick(random, MapperPropertiesTest.APACHE_STATES));
    }
    App app =
        App.apache()
            .restartPolicy(pick(random, MapperPropertiesTest.POLICIES))
            .states(states.toArray(String[]::new));
    if (random.nextBoolean()) {
      app.attempt(random.nextInt(3));
    }
    marks(random, app);
    return withManifest(app, APACHE);
  }

  private static JsonObject kubeflow(Random random) {
    App app = App.kubeflow().kubeflowState(pick(random, MapperPropertiesTest.KUBEFLOW_STATES));
    app.kubeflowRestartPolicy(
        pick(random, List.of("Never", "Always", "OnFailure", "Sometimes")),
        random.nextBoolean() ? random.nextInt(3) : null);
    if (random.nextBoolean()) {
      app.statusNumber("executionAttempts", random.nextInt(4));
    }
    if (random.nextBoolean()) {
      app.statusObject().getAsJsonObject("driverInfo").remove("podName");
    }
    marks(random, app);
    JsonObject whole = withManifest(app, KUBEFLOW);
    if (random.nextBoolean()) {
      whole
          .getAsJsonObject("spec")
          .getAsJsonObject("driver")
          .addProperty("podName", "custom-driver-" + random.nextInt(3));
    }
    return whole;
  }

  private static void marks(Random random, App app) {
    if (random.nextInt(4) == 0) {
      app.cancelMark(at(30));
    }
    if (random.nextInt(4) == 0) {
      app.deleting(at(40));
    }
  }

  /**
   * The application with the whole spec its kind writes (the fixture's own spec fields win) and a
   * real server's {@code managedFields}.
   */
  private static JsonObject withManifest(App app, JobKind<SparkJobSpec> kind) {
    SparkJobSpec spec =
        SparkJobSpec.builder()
            .namespace("etl")
            .mainApplicationFile("local:///opt/spark/examples/jars/spark-examples.jar")
            .mainClass("org.apache.spark.examples.SparkPi")
            .sparkVersion("4.0.1")
            .sparkConf(Map.of("spark.sql.shuffle.partitions", "64"))
            .build();
    JsonObject manifest = kind.manifest(spec, JobIdentity.of("kj", "prod", "etl", "nightly-etl"));
    JsonObject whole = app.snapshot().json();
    JsonObject merged = manifest.getAsJsonObject("spec").deepCopy();
    for (Map.Entry<String, JsonElement> e : whole.getAsJsonObject("spec").entrySet()) {
      merged.add(e.getKey(), e.getValue());
    }
    if (!merged.has("sparkConf")) {
      merged.add("sparkConf", new JsonObject());
    }
    whole.add("spec", merged);
    JsonObject manager = new JsonObject();
    manager.addProperty("manager", "spark-operator");
    manager.addProperty("operation", "Update");
    manager.addProperty("subresource", "status");
    manager.add("fieldsV1", new JsonObject());
    JsonArray managedFields = new JsonArray();
    managedFields.add(manager);
    whole.getAsJsonObject("metadata").add("managedFields", managedFields);
    return whole;
  }

  private static ResourceSnapshot snapshot(JsonObject json) {
    return ResourceSnapshot.of(json);
  }

  private static <T> T pick(Random random, List<T> from) {
    return from.get(random.nextInt(from.size()));
  }
}
