// clang-format off
// Input of the ctest check-ns3-compat-finds: utils/check-ns3-compat.py must
// flag exactly the lines marked BAD (7) and none marked OK.  Not compiled.
void
Cases()
{
    Simulator::Schedule(Seconds(1), &Foo::Bar, this);            // OK
    Simulator::ScheduleNow(&Free, 3);                              // OK
    Simulator::ScheduleWithContext(1, Seconds(0), &Free, 2);       // OK
    Simulator::Schedule(Seconds(1), [this]() { Bar(); });          // BAD
    Simulator::Schedule(MicroSeconds(5),                           // BAD
                        [&]() {
                            Bar();
                        });
    std::function<void()> fn = Bar;
    Simulator::ScheduleDestroy(fn);                                // BAD
    Callback<void, int> cb([](int x) {});                          // BAD
    Callback<void> cb2 = [] {};                                    // BAD
    dev->TraceConnectWithoutContext("Rx", MakeCallback([](int) {})); // BAD
    auto s = "Simulator::Schedule(t, [](){})";                     // OK (a string)
    // Simulator::Schedule(t, [](){});                             // OK (a comment)
    std::sort(v.begin(), v.end(), [](int a, int b) { return a < b; }); // OK
    Simulator::ScheduleWithContext(2, Seconds(1), new TxDoneEvent(this)); // OK (an EventImpl)
    Simulator::Schedule(Seconds(1), new Foo(this));                // BAD (not an event class)
}
