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

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;

/**
 * The fixed subset of kube-apiserver's own OpenAPI v3 schemas that the fake serves: {@code
 * ObjectMeta}, {@code ListMeta}, {@code Status}, {@code DeleteOptions}, {@code Patch}, and {@code
 * Pod}, {@code Event} and {@code Namespace} with their common fields (names and descriptions as in
 * k8s.io/api {@code core/v1/types.go}). Fields a real server documents beyond these are left open
 * ({@code x-kubernetes-preserve-unknown-fields}) rather than listed.
 */
final class CoreSchemas {

  private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";

  private CoreSchemas() {}

  /** A reference to a schema in the same document, with a description if given. */
  static JsonObject ref(String name, String description) {
    JsonObject r = new JsonObject();
    if (description == null) {
      r.addProperty("$ref", "#/components/schemas/" + name);
      return r;
    }
    JsonArray allOf = new JsonArray();
    JsonObject target = new JsonObject();
    target.addProperty("$ref", "#/components/schemas/" + name);
    allOf.add(target);
    r.add("allOf", allOf);
    r.addProperty("description", description);
    return r;
  }

  static JsonObject apiVersionProperty() {
    return typed(
        "string",
        "APIVersion defines the versioned schema of this representation of an object. Servers"
            + " should convert recognized schemas to the latest internal value, and may reject"
            + " unrecognized values.");
  }

  static JsonObject kindProperty() {
    return typed(
        "string",
        "Kind is a string value representing the REST resource this object represents. Servers"
            + " may infer this from the endpoint the client submits requests to. In CamelCase.");
  }

  private static JsonObject typed(String type, String description) {
    JsonObject o = new JsonObject();
    if (description != null) {
      o.addProperty("description", description);
    }
    o.addProperty("type", type);
    return o;
  }

  private static JsonObject open(String description) {
    JsonObject o = typed("object", description);
    o.addProperty("x-kubernetes-preserve-unknown-fields", true);
    return o;
  }

  private static JsonObject stringMap(String description) {
    JsonObject o = typed("object", description);
    o.add("additionalProperties", typed("string", null));
    return o;
  }

  private static JsonObject array(JsonObject items, String description) {
    JsonObject o = typed("array", description);
    o.add("items", items);
    return o;
  }

  private static JsonObject object(String description, Object... namesAndSchemas) {
    JsonObject o = typed("object", description);
    JsonObject props = new JsonObject();
    for (int i = 0; i < namesAndSchemas.length; i += 2) {
      props.add((String) namesAndSchemas[i], (JsonObject) namesAndSchemas[i + 1]);
    }
    o.add("properties", props);
    return o;
  }

  static JsonObject objectMeta() {
    return object(
        "ObjectMeta is metadata that all persisted resources must have, which includes all objects"
            + " users must create.",
        "annotations",
        stringMap("Annotations is an unstructured key value map stored with a resource."),
        "creationTimestamp",
        typed(
            "string",
            "CreationTimestamp is a timestamp representing the server time when this"
                + " object was created."),
        "deletionTimestamp",
        typed(
            "string",
            "DeletionTimestamp is RFC 3339 date and time at which this resource will"
                + " be deleted."),
        "finalizers",
        array(
            typed("string", null), "Must be empty before the object is deleted from the registry."),
        "generateName",
        typed(
            "string",
            "GenerateName is an optional prefix, used by the server, to generate a"
                + " unique name ONLY IF the Name field has not been provided."),
        "generation",
        typed(
            "integer",
            "A sequence number representing a specific generation of the desired" + " state."),
        "labels",
        stringMap(
            "Map of string keys and values that can be used to organize and categorize"
                + " (scope and select) objects."),
        "managedFields",
        array(
            open(
                "ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the"
                    + " resource that the fieldset applies to."),
            "ManagedFields maps workflow-id and"
                + " version to the set of fields that are managed by that workflow."),
        "name",
        typed("string", "Name must be unique within a namespace."),
        "namespace",
        typed("string", "Namespace defines the space within which each name must be unique."),
        "ownerReferences",
        array(
            open(
                "OwnerReference contains enough information to let you identify an owning"
                    + " object."),
            "List of objects depended by this object."),
        "resourceVersion",
        typed("string", "An opaque value that represents the internal version of this object."),
        "uid",
        typed("string", "UID is the unique in time and space value for this object."));
  }

  static JsonObject listMeta() {
    return object(
        "ListMeta describes metadata that synthetic resources must have, including lists and"
            + " various status objects.",
        "continue",
        typed(
            "string",
            "continue may be set if the user set a limit on the number of items" + " returned."),
        "remainingItemCount",
        typed(
            "integer",
            "remainingItemCount is the number of subsequent items in the list which"
                + " are not included in this list response."),
        "resourceVersion",
        typed("string", "String that identifies the server's internal version of this object."));
  }

  static JsonObject status() {
    return object(
        "Status is a return value for calls that don't return other objects.",
        "apiVersion",
        apiVersionProperty(),
        "code",
        typed("integer", "Suggested HTTP return code for this status, 0 if not set."),
        "details",
        open("Extended data associated with the reason."),
        "kind",
        kindProperty(),
        "message",
        typed("string", "A human-readable description of the status of this operation."),
        "metadata",
        ref(META + "ListMeta", "Standard list metadata."),
        "reason",
        typed(
            "string",
            "A machine-readable description of why this operation is in the"
                + " \"Failure\" status."),
        "status",
        typed("string", "Status of the operation. One of: \"Success\" or \"Failure\"."));
  }

  static JsonObject deleteOptions() {
    return object(
        "DeleteOptions may be provided when deleting an API object.",
        "apiVersion",
        apiVersionProperty(),
        "dryRun",
        array(
            typed("string", null),
            "When present, indicates that modifications should not be" + " persisted."),
        "gracePeriodSeconds",
        typed("integer", "The duration in seconds before the object should be deleted."),
        "kind",
        kindProperty(),
        "preconditions",
        open("Must be fulfilled before a deletion is carried out."),
        "propagationPolicy",
        typed("string", "Whether and how garbage collection will be performed."));
  }

  static JsonObject patch() {
    return typed(
        "object",
        "Patch is provided to give a concrete name and type to the Kubernetes PATCH request"
            + " body.");
  }

  private static JsonObject withGvk(JsonObject schema, JsonArray gvks) {
    schema.add("x-kubernetes-group-version-kind", gvks);
    return schema;
  }

  private static JsonObject metadataRef() {
    return ref(META + "ObjectMeta", "Standard object's metadata.");
  }

  static JsonObject pod(JsonArray gvks) {
    JsonObject container =
        object(
            "A single application container that you want to run within a pod.",
            "args",
            array(typed("string", null), "Arguments to the entrypoint."),
            "command",
            array(typed("string", null), "Entrypoint array. Not executed within a shell."),
            "env",
            array(
                open("EnvVar represents an environment variable present in a Container."),
                "List of environment variables to set in the container."),
            "image",
            typed("string", "Container image name."),
            "name",
            typed("string", "Name of the container specified as a DNS_LABEL."),
            "resources",
            open("Compute Resources required by this container."));
    container.add("required", stringArray("name"));
    return withGvk(
        object(
            "Pod is a collection of containers that can run on your host. This resource is created"
                + " by clients and scheduled onto hosts.",
            "apiVersion",
            apiVersionProperty(),
            "kind",
            kindProperty(),
            "metadata",
            metadataRef(),
            "spec",
            withOpen(
                object(
                    "PodSpec is a description of a pod.",
                    "containers",
                    array(container, "List of containers belonging to the pod."),
                    "initContainers",
                    array(
                        container.deepCopy(),
                        "List of initialization containers belonging to" + " the pod."),
                    "nodeName",
                    typed("string", "NodeName indicates in which node this pod is scheduled."),
                    "restartPolicy",
                    typed("string", "Restart policy for all containers within the pod."),
                    "serviceAccountName",
                    typed(
                        "string",
                        "ServiceAccountName is the name of the ServiceAccount to use"
                            + " to run this pod."))),
            "status",
            withOpen(
                object(
                    "PodStatus represents information about the status of a pod.",
                    "containerStatuses",
                    array(
                        open(
                            "ContainerStatus contains details for the current status of this"
                                + " container."),
                        "Statuses of containers in this pod."),
                    "phase",
                    typed(
                        "string",
                        "The phase of a Pod is a simple, high-level summary of where"
                            + " the Pod is in its lifecycle."),
                    "reason",
                    typed(
                        "string",
                        "A brief CamelCase message indicating details about why the"
                            + " pod is in this state.")))),
        gvks);
  }

  static JsonObject event(JsonArray gvks, boolean core) {
    JsonObject s =
        core
            ? object(
                "Event is a report of an event somewhere in the cluster.",
                "apiVersion",
                apiVersionProperty(),
                "count",
                typed("integer", "The number of times this event has occurred."),
                "involvedObject",
                open("The object that this event is about."),
                "kind",
                kindProperty(),
                "message",
                typed(
                    "string", "A human-readable description of the status of this" + " operation."),
                "metadata",
                metadataRef(),
                "reason",
                typed(
                    "string",
                    "This should be a short, machine understandable string"
                        + " that gives the reason for the transition into the object's current"
                        + " status."),
                "source",
                open("The component reporting this event."),
                "type",
                typed("string", "Type of this event (Normal, Warning)."))
            : object(
                "Event is a report of an event somewhere in the cluster.",
                "apiVersion",
                apiVersionProperty(),
                "kind",
                kindProperty(),
                "metadata",
                metadataRef(),
                "note",
                typed(
                    "string",
                    "note is a human-readable description of the status of" + " this operation."),
                "reason",
                typed("string", "reason is why the action was taken."),
                "regarding",
                open("regarding contains the object this Event is about."),
                "reportingController",
                typed(
                    "string",
                    "reportingController is the name of the"
                        + " controller that emitted this Event."),
                "type",
                typed("string", "type is the type of this event (Normal, Warning)."));
    return withGvk(withOpen(s), gvks);
  }

  static JsonObject namespace(JsonObject gvk) {
    JsonArray gvks = new JsonArray();
    gvks.add(gvk);
    return withGvk(
        object(
            "Namespace provides a scope for Names. Use of multiple namespaces is optional.",
            "apiVersion",
            apiVersionProperty(),
            "kind",
            kindProperty(),
            "metadata",
            metadataRef(),
            "spec",
            open("Spec defines the behavior of the Namespace."),
            "status",
            open("Status describes the current status of a Namespace.")),
        gvks);
  }

  private static JsonObject withOpen(JsonObject o) {
    o.addProperty("x-kubernetes-preserve-unknown-fields", true);
    return o;
  }

  private static JsonArray stringArray(String... values) {
    JsonArray a = new JsonArray();
    for (String v : values) {
      a.add(v);
    }
    return a;
  }
}
