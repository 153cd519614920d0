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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.InvalidJobSpecException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Spec validation: each bad input fails before anything is sent, naming the setting. */
class SparkJobSpecTest {
  private static SparkJobSpec.Builder valid() {
    return SparkJobSpec.builder()
        .mainApplicationFile("local:///opt/app.jar")
        .mainClass("com.example.Main")
        .sparkVersion("4.0.1")
        .namespace("etl");
  }

  static Stream<Arguments> badInputs() {
    return Stream.of(
        bad("mainApplicationFile", "missing", b -> SparkJobSpec.builder().sparkVersion("4.0.1")),
        bad("mainApplicationFile", "blank", b -> b.mainApplicationFile(" ")),
        bad("mainApplicationFile", "comma", b -> b.mainApplicationFile("a.jar,b.jar")),
        bad("sparkVersion", "missing", b -> SparkJobSpec.builder().mainApplicationFile("a.jar")),
        bad("driverCores", "zero", b -> b.driverCores(0)),
        bad("executorCores", "negative", b -> b.executorCores(-2)),
        bad("executorInstances", "zero", b -> b.executorInstances(0)),
        bad("driverMemory", "Kubernetes unit", b -> b.driverMemory("2Gi")),
        bad("executorMemory", "zero", b -> b.executorMemory("0g")),
        bad("executorMemory", "negative", b -> b.executorMemory("-1g")),
        bad("driverMemory", "no unit", b -> b.driverMemory("512")),
        bad("driverMemory", "null", b -> b.driverMemory(null)),
        bad("labels", "bad key", b -> b.label("bad key", "x")),
        bad("labels", "bad prefix", b -> b.label("Example.COM/x", "x")),
        bad("labels", "key too long", b -> b.label("a".repeat(64), "x")),
        bad("labels['team']", "value too long", b -> b.label("team", "a".repeat(64))),
        bad("labels['team']", "value with slash", b -> b.label("team", "a/b")),
        bad("labels['team']", "value ends with dash", b -> b.label("team", "a-")),
        bad("labels", "owned job id", b -> b.label("kubejobs.dev/job-id", "x")),
        bad("labels", "owned managed-by", b -> b.label("app.kubernetes.io/managed-by", "me")),
        bad(
            "annotations",
            "owned cancel mark",
            b -> b.annotation("kubejobs.dev/cancel-requested", "x")),
        bad("annotations", "bad key", b -> b.annotation("", "x")),
        bad("namespace", "upper case", b -> b.namespace("ETL")),
        bad("namespace", "too long", b -> b.namespace("a".repeat(64))),
        bad("namespace", "dots", b -> b.namespace("a.b")),
        bad("serviceAccount", "upper case", b -> b.serviceAccount("Spark")),
        bad("sparkConf", "managed key", b -> b.sparkConf("spark.driver.memory", "4g")),
        bad("sparkConf", "key with space", b -> b.sparkConf("spark. x", "1")),
        bad("environment", "bad name", b -> b.environment("1ABC", "x")),
        bad("jars[1]", "blank entry", b -> b.jars(List.of("a.jar", " "))),
        bad("mainClass", "python with main class", b -> b.type(SparkJobSpec.Type.PYTHON)),
        bad("image", "white space", b -> b.image("spark 4")),
        bad("sparkConf", "null map", b -> b.sparkConf((Map<String, String>) null)),
        bad("environment", "null map", b -> b.environment((Map<String, String>) null)),
        bad("labels", "null map", b -> b.labels(null)),
        bad("annotations", "null map", b -> b.annotations(null)),
        bad("arguments", "null list", b -> b.arguments(null)),
        bad("jars", "null list", b -> b.jars(null)));
  }

  private static Arguments bad(
      String setting, String why, UnaryOperator<SparkJobSpec.Builder> change) {
    return Arguments.of(setting, why, change);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("badInputs")
  void badInputFailsNamingTheSetting(
      String setting, String why, UnaryOperator<SparkJobSpec.Builder> change) {
    assertThatThrownBy(() -> change.apply(valid()).build())
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageStartingWith(setting + " must")
        .hasMessageContaining("but was");
  }

  @Test
  void anInvalidMapLeavesTheBuilderAsItWas() {
    SparkJobSpec.Builder builder = valid().sparkConf("spark.a", "1").label("team", "data");
    Map<String, String> badConf = new LinkedHashMap<>();
    badConf.put("spark.b", "2");
    badConf.put("spark.driver.memory", "4g");

    assertThatThrownBy(() -> builder.sparkConf(badConf))
        .isInstanceOf(InvalidJobSpecException.class);
    assertThatThrownBy(() -> builder.labels(Map.of("bad key", "x")))
        .isInstanceOf(InvalidJobSpecException.class);

    SparkJobSpec spec = builder.build();
    assertThat(spec.sparkConf()).containsExactly(Map.entry("spark.a", "1"));
    assertThat(spec.labels()).containsExactly(Map.entry("team", "data"));
  }

  @Test
  void messagesNameTheRuleAndTheValue() {
    assertThatThrownBy(() -> valid().driverMemory("2Gi"))
        .hasMessage(
            "driverMemory must be a positive whole amount with a Spark size unit k, m, g, t or p"
                + " (for example 512m or 4g; Kubernetes units such as Gi are not understood by"
                + " Spark), but was '2Gi'");
    assertThatThrownBy(() -> valid().label("kubejobs.dev/deployment", "x"))
        .hasMessageContaining("kubejobs.dev/*")
        .hasMessageContaining("'kubejobs.dev/deployment'");
  }

  @Test
  void toStringMasksSecretLookingConfAndEnvironment() {
    SparkJobSpec spec =
        valid()
            .sparkConf("spark.hadoop.fs.s3a.secret.key", "AKIA-very-secret")
            .sparkConf("spark.hadoop.fs.s3a.access.key", "AKIA-access")
            .sparkConf("spark.ssl.keyPassword", "pw1")
            .sparkConf("spark.datasource.token", "T0KEN-VALUE")
            .sparkConf(
                "spark.hadoop.google.cloud.auth.service.account.json.credential", "CRED-VALUE")
            .sparkConf("spark.sql.shuffle.partitions", "200")
            .environment("DB_PASSWORD", "pw2")
            .environment("REGION", "eu")
            .arguments(List.of("--password", "pw3"))
            .build();

    String text = spec.toString();

    assertThat(text)
        .doesNotContain(
            "AKIA-very-secret", "AKIA-access", "pw1", "pw2", "pw3", "T0KEN-VALUE", "CRED-VALUE")
        .contains("spark.hadoop.fs.s3a.secret.key=****")
        .contains("spark.sql.shuffle.partitions=200")
        .contains("REGION=eu");
    assertThat(spec.sparkConf().get("spark.hadoop.fs.s3a.secret.key"))
        .isEqualTo("AKIA-very-secret");
  }

  @Test
  void specIsImmutableAndToBuilderRoundTrips() {
    SparkJobSpec spec =
        valid()
            .jars(List.of("a.jar"))
            .sparkConf(Map.of("k", "v"))
            .label("team", "x")
            .environment("A", "b")
            .build();

    assertThat(spec.toBuilder().build()).isEqualTo(spec).hasSameHashCodeAs(spec);
    assertThatThrownBy(() -> spec.jars().add("b.jar"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> spec.sparkConf().put("x", "y"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(spec.toBuilder().executorInstances(3).build().executorInstances()).isEqualTo(3);
    assertThat(spec.executorInstances()).isEqualTo(1);
  }

  @Test
  void defaultsAreSmallAndExplicit() {
    SparkJobSpec spec =
        SparkJobSpec.builder().mainApplicationFile("a.jar").sparkVersion("4").build();

    assertThat(spec.type()).isEqualTo(SparkJobSpec.Type.JAVA);
    assertThat(spec.namespace()).isEqualTo("default");
    assertThat(spec.driverCores()).isEqualTo(1);
    assertThat(spec.driverMemory()).isEqualTo("1g");
    assertThat(spec.executorMemory()).isEqualTo("1g");
    assertThat(spec.mainClass()).isEmpty();
  }

  @Test
  void optionsValidateTheirSettings() {
    assertThatThrownBy(() -> ApacheOptions.builder().noStatusTimeout(Duration.ZERO))
        .isInstanceOf(InvalidJobSpecException.class)
        .hasMessageStartingWith("noStatusTimeout must");
    assertThatThrownBy(() -> ApacheOptions.builder().maxRestartAttempts(0))
        .hasMessageStartingWith("maxRestartAttempts must");
    assertThatThrownBy(() -> KubeflowOptions.builder().onFailureRetries(-1))
        .hasMessageStartingWith("onFailureRetries must");
    assertThat(ApacheOptions.ofDefaults().noStatusTimeout()).isEqualTo(Duration.ofMinutes(10));
    assertThat(ApacheOptions.ofDefaults().restartPolicy())
        .isEqualTo(ApacheOptions.RestartPolicy.NEVER);
    assertThat(KubeflowOptions.ofDefaults().noStatusTimeout()).isEqualTo(Duration.ofMinutes(10));
  }

  @Property
  void memoryWithASparkUnitIsAcceptedAndAnyOtherTextRefused(
      @ForAll @IntRange(min = 1, max = 999_999) int amount, @ForAll("units") String unit) {
    assertThat(valid().driverMemory(amount + unit).build().driverMemory())
        .isEqualTo((amount + unit).toLowerCase(java.util.Locale.ROOT));
  }

  @net.jqwik.api.Provide
  net.jqwik.api.Arbitrary<String> units() {
    return net.jqwik.api.Arbitraries.of("k", "m", "g", "t", "p", "K", "M", "G", "kb", "MB", "gb");
  }

  @Property
  void anyTextIsEitherAValidLabelValueOrRefusedWithTheSetting(@ForAll String value) {
    try {
      valid().label("team", value);
      assertThat(value)
          .matches("([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?")
          .hasSizeLessThanOrEqualTo(63);
    } catch (InvalidJobSpecException e) {
      assertThat(e).hasMessageStartingWith("labels['team'] must");
    }
  }
}
