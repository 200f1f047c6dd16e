// clang-format off
// Input of the ctest check-ns3-compat-finds: utils/check-ns3-compat.py must
// flag exactly the lines marked BAD (20) and none marked OK.  Not compiled.
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
    // APIs that ns-3.41 to 3.48 removed or changed
    if (m_event.IsRunning())                                       // BAD
    if (m_event.IsPending())                                       // BAD
    if (!m_event.IsExpired())                                      // OK
    MakeEnumAccessor<Mode>(&Foo::m_mode),                          // BAD
    MakeEnumAccessor(&Foo::m_mode),                                // BAD
    MakeTaggerEnumAccessor(&Foo::m_mode),                          // OK
    EnumValue(Foo::FAST),                                          // OK (an initial value)
    EnumValue mode;                                                // BAD
    TaggerEnumValue<Foo::Mode> mode2;                              // OK
    : TestSuite("tagger-x", UNIT)                                  // BAD
    : TestSuite("tagger-y", Type::UNIT)                            // OK
    TestSuite("tagger-z", TestSuite::SYSTEM)                        // BAD
    AddTestCase(new FooTestCase, TestCase::QUICK);                 // BAD
    AddTestCase(new FooTestCase);                                  // OK
    InetSocketAddress to(address, 9);                              // OK
    to.SetTos(0x20);                                               // BAD
    SocketIpTosTag tag;                                            // OK
    tag.SetTos(0x20);                                              // OK (a tag)
    onoff.SetAttribute("Tos", UintegerValue(0x20));                // BAD
    SetApplicationTos(onoff, to, 0x20);                            // OK
    Ipv4Mask mask(bits);                                           // BAD
    os << Ipv4Mask(bits);                                          // BAD
    Ipv4Mask("255.0.0.0");                                         // OK
#if TAGGER_NS3_VERSION >= 341                                      // BAD
#endif
}
