#include <cstdio>
int main() { std::puts("idlespec"); return 0; }
