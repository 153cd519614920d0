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
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.KubeJobs;
import dev.kubejobs.core.resilience.ResiliencePolicy;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds the objects and instances of the {@link FakeAppKind} that the sweep, driver log and
 * preflight tests arrange.
 */
public final class FakeApps {
  private FakeApps() {}

  /**
   * Returns an instance for a deployment, with no retries or breaker so faults show at once.
   *
   * @param client the fake server's client
   * @param clock the clock shared with the fake server
   * @param deployment the deployment name
   * @return the instance
   */
  public static KubeJobs<String> jobs(ApiClient client, Clock clock, String deployment) {
    return KubeJobs.builder(client, new FakeAppKind())
        .cluster(Fixture.CLUSTER)
        .deployment(deployment)
        .clock(clock)
        .resiliencePolicy(ResiliencePolicy.none())
        .build();
  }

  /**
   * Returns a FakeApp managed by kubejobs for a job of a deployment.
   *
   * @param name the resource name
   * @param jobId the raw job id
   * @param deployment the deployment
   * @return the object
   */
  public static JsonObject managedApp(String name, String jobId, String deployment) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(JobIdentity.LABEL_MANAGED_BY, JobIdentity.MANAGED_BY_VALUE);
    labels.put(JobIdentity.LABEL_JOB_ID, JobIdentity.labelValueOf(jobId));
    labels.put(JobIdentity.LABEL_DEPLOYMENT, deployment);
    return app(name, labels, Map.of(JobIdentity.ANNOTATION_JOB_ID, jobId));
  }

  /**
   * Returns a FakeApp with the given labels and annotations.
   *
   * @param name the name
   * @param labels the labels
   * @param annotations the annotations
   * @return the object
   */
  public static JsonObject app(
      String name, Map<String, String> labels, Map<String, String> annotations) {
    JsonObject l = new JsonObject();
    labels.forEach(l::addProperty);
    JsonObject a = new JsonObject();
    annotations.forEach(a::addProperty);
    JsonObject metadata = new JsonObject();
    metadata.addProperty("name", name);
    metadata.add("labels", l);
    metadata.add("annotations", a);
    JsonObject app = new JsonObject();
    app.addProperty("apiVersion", FakeAppKind.KIND.apiVersion());
    app.addProperty("kind", FakeAppKind.KIND.kind());
    app.add("metadata", metadata);
    app.add("spec", new JsonObject());
    return app;
  }

  /**
   * Returns a driver pod of an app with the given containers.
   *
   * @param name the pod name
   * @param app the app's name
   * @param containers the container names
   * @return the pod
   */
  public static JsonObject driverPod(String name, String app, String... containers) {
    JsonObject labels = new JsonObject();
    labels.addProperty("role", "driver");
    labels.addProperty("app", app);
    JsonObject metadata = new JsonObject();
    metadata.addProperty("name", name);
    metadata.add("labels", labels);
    JsonArray list = new JsonArray();
    for (String c : containers) {
      JsonObject container = new JsonObject();
      container.addProperty("name", c);
      container.addProperty("image", "spark:test");
      list.add(container);
    }
    JsonObject spec = new JsonObject();
    spec.add("containers", list);
    JsonObject status = new JsonObject();
    status.addProperty("phase", "Running");
    JsonObject pod = new JsonObject();
    pod.addProperty("apiVersion", "v1");
    pod.addProperty("kind", "Pod");
    pod.add("metadata", metadata);
    pod.add("spec", spec);
    pod.add("status", status);
    return pod;
  }
}
