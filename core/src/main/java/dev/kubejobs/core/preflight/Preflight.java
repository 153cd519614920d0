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
package dev.kubejobs.core.preflight;

import dev.kubejobs.core.ApiUnavailableException;
import java.util.Arrays;
import java.util.Collection;

/**
 * Checks, before the first job, that the cluster is ready for kubejobs: that the job resource's CRD
 * is served and that the caller's credentials hold every permission kubejobs uses, in each
 * namespace jobs will run in. Run it at start-up and log or fail on {@link
 * PreflightReport#summary()} when {@link PreflightReport#isOk()} is false, so a misconfigured
 * deployment is told what to fix before its first job fails.
 *
 * <p>Each permission is asked with one {@code SelfSubjectAccessReview}, which every authenticated
 * user may create; the CRD with one discovery request ({@code GET /apis/<group>/<version>}). The
 * permissions, for the job kind's group and plural (here the Apache Spark operator's):
 *
 * <pre>
 * apiVersion: rbac.authorization.k8s.io/v1
 * kind: Role
 * metadata:
 *   name: kubejobs
 *   namespace: spark-jobs            # one per namespace jobs run in
 * rules:
 *   - apiGroups: ["spark.apache.org"]   # or sparkoperator.k8s.io for the Kubeflow operator
 *     resources: ["sparkapplications"]
 *     verbs: ["create", "get", "list", "patch", "delete"]
 *   - apiGroups: [""]
 *     resources: ["pods"]
 *     verbs: ["get", "list", "delete"]
 *   - apiGroups: [""]
 *     resources: ["pods/log"]
 *     verbs: ["get"]
 * </pre>
 *
 * <p>The same Role with its RoleBinding is in {@code docs/rbac.yaml} of the kubejobs repository.
 *
 * <p>Implementations are thread safe.
 */
public interface Preflight {
  /**
   * Checks the CRD and every permission in each namespace.
   *
   * @param namespaces the namespaces jobs will run in, at least one
   * @return the report: every missing permission and whether the CRD is served
   * @throws IllegalArgumentException if {@code namespaces} is null, empty or holds a name that is
   *     not a DNS label
   * @throws ApiUnavailableException if the API server cannot be reached; nothing was concluded
   */
  PreflightReport check(Collection<String> namespaces);

  /**
   * Checks the CRD and every permission in each namespace.
   *
   * @param namespaces the namespaces jobs will run in, at least one
   * @return the report
   * @throws IllegalArgumentException if a namespace is not a DNS label, or none is given
   * @throws ApiUnavailableException if the API server cannot be reached
   */
  default PreflightReport check(String... namespaces) {
    if (namespaces == null) {
      throw new IllegalArgumentException("namespaces must not be null");
    }
    return check(Arrays.asList(namespaces.clone()));
  }
}
