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

import com.google.gson.JsonObject;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.spark.internal.KubeflowStatusMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Where the Kubeflow driver pod's name comes from, in the order {@link
 * KubeflowStatusMapper#driverPodName} documents: {@code status.driverInfo.podName}, else the {@code
 * spec.driver.podName} the user chose, else {@code <name>-driver}, an empty string counting as
 * absent.
 */
class KubeflowDriverPodNameTest {

  @ParameterizedTest(name = "status ''{0}'', spec ''{1}'' -> {2}")
  @CsvSource({
    "from-status, from-spec, from-status",
    "'',          from-spec, from-spec",
    ",            from-spec, from-spec",
    "'',          '',        app-1-driver",
    ",            ,          app-1-driver",
    "from-status, ,          from-status",
  })
  void driverPodNameFallsBackFromStatusToSpecToDefault(
      String fromStatus, String fromSpec, String expected) {
    JsonObject app = new JsonObject();
    app.addProperty("apiVersion", "sparkoperator.k8s.io/v1beta2");
    app.addProperty("kind", "SparkApplication");
    JsonObject meta = new JsonObject();
    meta.addProperty("name", "app-1");
    meta.addProperty("namespace", "etl");
    meta.addProperty("uid", "u-1");
    meta.addProperty("resourceVersion", "1");
    app.add("metadata", meta);
    JsonObject spec = new JsonObject();
    if (fromSpec != null) {
      JsonObject driver = new JsonObject();
      driver.addProperty("podName", fromSpec);
      spec.add("driver", driver);
    }
    app.add("spec", spec);
    if (fromStatus != null) {
      JsonObject driverInfo = new JsonObject();
      driverInfo.addProperty("podName", fromStatus);
      JsonObject status = new JsonObject();
      status.add("driverInfo", driverInfo);
      app.add("status", status);
    }

    assertThat(KubeflowStatusMapper.driverPodName(ResourceSnapshot.of(app))).isEqualTo(expected);
  }
}
