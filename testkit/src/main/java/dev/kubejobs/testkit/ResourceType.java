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

import java.lang.reflect.RecordComponent;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Names a namespaced Kubernetes resource that the fake API server serves: its API group, version,
 * plural and kind.
 *
 * <p>Use {@link #POD} for core pods, which every server serves, and register custom resources with
 * {@link FakeKubernetesApiServer#registerResource(ResourceType)}. Every registered custom resource
 * is namespaced and has a {@code status} subresource, as the CRDs of both Spark operators do.
 *
 * <p>Instances are immutable and thread safe.
 *
 * @param group the API group, {@code ""} for the core group
 * @param version the API version, for example {@code v1beta2}
 * @param plural the lower-case plural used in paths, for example {@code sparkapplications}
 * @param kind the kind, for example {@code SparkApplication}
 */
public record ResourceType(String group, String version, String plural, String kind) {

  /** Core pods: group {@code ""}, version {@code v1}, plural {@code pods}, kind {@code Pod}. */
  public static final ResourceType POD = new ResourceType("", "v1", "pods", "Pod");

  /**
   * Core events, {@code v1} {@code events} (kind {@code Event}): always served, with the field
   * selectors {@code involvedObject.*}, {@code reason}, {@code type} and {@code
   * reportingComponent}. The same objects are served as {@link #EVENTS_K8S_IO_EVENT}.
   */
  public static final ResourceType EVENT = new ResourceType("", "v1", "events", "Event");

  /**
   * Events in the {@code events.k8s.io/v1} shape ({@code regarding}, {@code note}, {@code
   * reportingController}, {@code deprecated*}): always served, the same objects as {@link #EVENT}
   * converted as kube-apiserver converts them.
   */
  public static final ResourceType EVENTS_K8S_IO_EVENT =
      new ResourceType("events.k8s.io", "v1", "events", "Event");

  /**
   * Core services, {@code v1} {@code services} (kind {@code Service}, short name {@code svc}):
   * always served, with a {@code status} subresource; a create gets a {@code spec.clusterIP} and
   * the defaults kube-apiserver gives, and a DELETE answers the service.
   */
  public static final ResourceType SERVICE = new ResourceType("", "v1", "services", "Service");

  /** Core config maps, {@code v1} {@code configmaps} (short name {@code cm}): always served. */
  public static final ResourceType CONFIG_MAP =
      new ResourceType("", "v1", "configmaps", "ConfigMap");

  /**
   * Core secrets, {@code v1} {@code secrets}: always served; {@code stringData} is written into
   * {@code data} (base64) and {@code type} defaults to {@code Opaque}, as kube-apiserver does.
   */
  public static final ResourceType SECRET = new ResourceType("", "v1", "secrets", "Secret");

  /**
   * Core service accounts, {@code v1} {@code serviceaccounts} (short name {@code sa}): always
   * served; a DELETE answers the service account.
   */
  public static final ResourceType SERVICE_ACCOUNT =
      new ResourceType("", "v1", "serviceaccounts", "ServiceAccount");

  /**
   * Network policies, {@code networking.k8s.io/v1} {@code networkpolicies} (short name {@code
   * netpol}): always served (nothing enforces them).
   */
  public static final ResourceType NETWORK_POLICY =
      new ResourceType("networking.k8s.io", "v1", "networkpolicies", "NetworkPolicy");

  /**
   * Returns whether this is one of the built-in kinds the server always serves (pods, events,
   * services, config maps, secrets, service accounts and network policies), whose list items carry
   * no {@code kind} and whose body needs none.
   *
   * @return true for {@link #POD}, {@link #EVENT}, {@link #EVENTS_K8S_IO_EVENT}, {@link #SERVICE},
   *     {@link #CONFIG_MAP}, {@link #SECRET}, {@link #SERVICE_ACCOUNT} and {@link #NETWORK_POLICY}
   */
  public boolean isBuiltIn() {
    return BUILT_IN.contains(this);
  }

  /** The kinds every server serves without registration, in the order discovery lists them. */
  static final java.util.List<ResourceType> BUILT_IN =
      java.util.List.of(
          POD,
          EVENT,
          EVENTS_K8S_IO_EVENT,
          SERVICE,
          CONFIG_MAP,
          SECRET,
          SERVICE_ACCOUNT,
          NETWORK_POLICY);

  /**
   * Whether objects of this type have a {@code status} subresource: custom resources (as the
   * testkit registers them), pods and services; events, config maps, secrets, service accounts and
   * network policies have none.
   */
  boolean hasStatus() {
    return !isBuiltIn() || equals(POD) || equals(SERVICE);
  }

  /**
   * Whether a DELETE that removes an object of this type answers the object rather than a {@code
   * Status}: the storages that set {@code ReturnDeletedObject} (kubernetes/kubernetes {@code
   * pkg/registry/core/pod/storage/storage.go}, {@code .../service/storage/storage.go}, {@code
   * .../serviceaccount/storage/storage.go}).
   */
  boolean returnsDeletedObject() {
    return equals(POD) || equals(SERVICE) || equals(SERVICE_ACCOUNT);
  }

  /**
   * The Apache Spark Kubernetes Operator's SparkApplication, {@code spark.apache.org/v1} (operator
   * 0.5 and later), served by {@code FakeSparkOperator.apache(server)}.
   */
  public static final ResourceType APACHE_SPARK_APPLICATION =
      new ResourceType("spark.apache.org", "v1", "sparkapplications", "SparkApplication");

  /**
   * The Apache Spark Kubernetes Operator's SparkApplication in its older version, {@code
   * spark.apache.org/v1beta1} (operators 0.3–0.4).
   */
  public static final ResourceType APACHE_SPARK_APPLICATION_V1BETA1 =
      new ResourceType("spark.apache.org", "v1beta1", "sparkapplications", "SparkApplication");

  /**
   * The Kubeflow Spark operator's SparkApplication, {@code sparkoperator.k8s.io/v1beta2}, served by
   * {@code FakeSparkOperator.kubeflow(server)}.
   */
  public static final ResourceType KUBEFLOW_SPARK_APPLICATION =
      new ResourceType("sparkoperator.k8s.io", "v1beta2", "sparkapplications", "SparkApplication");

  /**
   * Creates a resource type after checking that every part is present.
   *
   * @throws IllegalArgumentException if version, plural or kind is blank, or group is null
   */
  public ResourceType {
    Objects.requireNonNull(group, "group must not be null (use \"\" for the core group)");
    if (version == null || version.isBlank()) {
      throw new IllegalArgumentException("version must not be blank, but was " + version);
    }
    if (plural == null || plural.isBlank() || !plural.equals(plural.toLowerCase(Locale.ROOT))) {
      throw new IllegalArgumentException(
          "plural must be lower case and not blank, but was " + plural);
    }
    if (kind == null || kind.isBlank()) {
      throw new IllegalArgumentException("kind must not be blank, but was " + kind);
    }
  }

  /**
   * Returns the resource type of a record with the same four {@code String} components, {@code
   * group}, {@code version}, {@code plural} and {@code kind}: the one place where a kind of another
   * library, such as kubejobs-core's {@code ResourceKind}, becomes the type the fake serves, so a
   * test registers exactly the resource its job kind reads: {@code
   * server.registerResource(ResourceType.of(jobKind.resourceKind()))}. (The testkit does not depend
   * on kubejobs-core, whose own tests use the testkit.)
   *
   * @param kind a record with {@code String} components named group, version, plural and kind
   * @return the resource type with those parts
   * @throws IllegalArgumentException if the record lacks one of them, or a part is invalid
   */
  public static ResourceType of(Record kind) {
    Objects.requireNonNull(kind, "kind");
    Map<String, String> parts = new HashMap<>();
    for (RecordComponent component : kind.getClass().getRecordComponents()) {
      if (component.getType() == String.class) {
        try {
          parts.put(component.getName(), (String) component.getAccessor().invoke(kind));
        } catch (ReflectiveOperationException e) {
          throw new IllegalArgumentException(
              "cannot read component " + component.getName() + " of " + kind, e);
        }
      }
    }
    for (String part : new String[] {"group", "version", "plural", "kind"}) {
      if (!parts.containsKey(part)) {
        throw new IllegalArgumentException(
            kind.getClass().getName()
                + " has no String component named "
                + part
                + "; a resource type needs group, version, plural and kind");
      }
    }
    return new ResourceType(
        parts.get("group"), parts.get("version"), parts.get("plural"), parts.get("kind"));
  }

  /**
   * Returns the {@code apiVersion} that objects of this type carry: {@code group/version}, or just
   * the version for the core group.
   *
   * @return the apiVersion string, for example {@code spark.apache.org/v1} or {@code v1}
   */
  public String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  /**
   * Returns the kind of this type's list responses, {@code kind + "List"}.
   *
   * @return the list kind, for example {@code SparkApplicationList}
   */
  public String listKind() {
    return kind + "List";
  }

  /**
   * Returns the lower-case singular name, the kind in lower case.
   *
   * @return the singular name, for example {@code sparkapplication}
   */
  public String singular() {
    return kind.toLowerCase(Locale.ROOT);
  }

  /**
   * Returns the qualified resource name used in server messages: {@code plural.group}, or just the
   * plural for the core group.
   *
   * @return for example {@code sparkapplications.spark.apache.org} or {@code pods}
   */
  public String qualifiedPlural() {
    return group.isEmpty() ? plural : plural + "." + group;
  }

  /**
   * Returns whether this is a core-group resource, served under {@code /api/v1}.
   *
   * @return true for the core group
   */
  public boolean isCore() {
    return group.isEmpty();
  }

  /**
   * Returns the path prefix of this type's group and version: {@code /api/v1} or {@code
   * /apis/group/version}.
   *
   * @return the group-version path without a trailing slash
   */
  public String groupVersionPath() {
    return group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
  }

  /**
   * Returns the path of this type's collection in a namespace.
   *
   * @param namespace the namespace
   * @return for example {@code /apis/spark.apache.org/v1/namespaces/ns/sparkapplications}
   */
  public String collectionPath(String namespace) {
    return groupVersionPath() + "/namespaces/" + namespace + "/" + plural;
  }

  /**
   * Returns the path of one object of this type.
   *
   * @param namespace the namespace
   * @param name the object's name
   * @return for example {@code /api/v1/namespaces/ns/pods/driver}
   */
  public String objectPath(String namespace, String name) {
    return collectionPath(namespace) + "/" + name;
  }
}
