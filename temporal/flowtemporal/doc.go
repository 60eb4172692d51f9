// Package flowtemporal runs flowc workflows on Temporal. Code generated
// with `flowc gen --target temporal` calls it: the workflow function runs
// the same steps as the native engine, with every handler call an
// activity, fan-outs as workflow coroutines, waits and retry intervals as
// durable timers, and approvals as signals with a query for what is pending.
//
// It lives in its own module so that the Temporal SDK stays out of
// programs that do not use this target.
package flowtemporal
