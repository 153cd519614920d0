/**
 * The gateway to the Kubernetes API server: {@link dev.kubejobs.core.internal.kube.KubeGateway} is
 * the only class that sends requests. Not a published API.
 */
package dev.kubejobs.core.internal.kube;
