package dev.kubejobs.core.internal.kube;

/**
 * The answer of a SelfSubjectAccessReview.
 *
 * @param allowed whether the caller's credentials may do it
 * @param reason the server's reason, possibly empty
 */
public record AccessReview(boolean allowed, String reason) {}
