package dev.kubejobs.testkit;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

/** Shared fixtures for the fake server's tests. */
final class Kube {

  static final ResourceType SPARK_APP =
      new ResourceType("spark.apache.org", "v1", "sparkapplications", "SparkApplication");

  static final String NS = "jobs";

  private Kube() {}

  static DynamicKubernetesApi apps(ApiClient client) {
    return new DynamicKubernetesApi("spark.apache.org", "v1", "sparkapplications", client);
  }

  static DynamicKubernetesApi pods(ApiClient client) {
    return new DynamicKubernetesApi("", "v1", "pods", client);
  }

  static JsonObject json(String json) {
    return JsonParser.parseString(json.replace('\'', '"')).getAsJsonObject();
  }

  /** A SparkApplication named {@code name} in {@link #NS} with a label {@code app=name}. */
  static DynamicKubernetesObject app(String name) {
    return new DynamicKubernetesObject(appJson(name));
  }

  static JsonObject appJson(String name) {
    return json(
        "{'apiVersion':'spark.apache.org/v1','kind':'SparkApplication','metadata':{'name':'"
            + name
            + "','namespace':'"
            + NS
            + "','labels':{'app':'"
            + name
            + "'}},'spec':{'mainClass':'org.example.Pi','sparkVersion':'4.0.0'}}");
  }
}
