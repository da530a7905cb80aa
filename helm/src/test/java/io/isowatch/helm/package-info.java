/**
 * Tests of the Helm chart in {@code helm/isowatch}: {@code helm lint --strict} and
 * {@code helm template} through the embedded helm of helm-java (no cluster, no network), assertions
 * on the rendered manifests, the values schema's rejections, and validation of the rendered
 * {@code FlinkDeployment} against the Flink Kubernetes Operator's CRD schema.
 *
 * <p>The chart is rendered for four value sets: the defaults, {@code ci/minimal-values.yaml},
 * {@code ci/full-values.yaml} and {@code ci/fleet-values.yaml} (several agents, one history). Each render is cached per test JVM; one render takes a few tens of
 * milliseconds once the native helm library is loaded.
 */
package io.isowatch.helm;
