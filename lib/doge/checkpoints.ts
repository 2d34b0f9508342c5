/**
 * Built-in header checkpoints (height, block hash in display order, header time, compact bits).
 * Chain constants from libdogecoin `src/chainparams.c` (dogecoin_{mainnet,testnet}_checkpoint_array).
 * @module
 */

export interface Checkpoint {
  readonly height: number;
  /** Block hash, display (RPC) byte order. */
  readonly hash: string;
  readonly time: number;
  readonly bits: number;
}

export const MAINNET_CHECKPOINTS: readonly Checkpoint[] = Object.freeze(
  [
    { height: 0, hash: '1a91e3dace36e2be3bf030a65679fe821aa1d6ef92e7c9902eb318182c355691', time: 1386325540, bits: 0x1e0ffff0 },
    { height: 104679, hash: '35eb87ae90d44b98898fec8c39577b76cb1eb08e1261cfc10706c8ce9a1d01cf', time: 1392637497, bits: 0x1b41676b },
    { height: 145000, hash: 'cc47cae70d7c5c92828d3214a266331dde59087d4a39071fa76ddfff9b7bde72', time: 1395094679, bits: 0x1b499dfd },
    { height: 371337, hash: '60323982f9c5ff1b5a954eac9dc1269352835f47c2c5222691d80f0d50dcf053', time: 1410464577, bits: 0x1b364184 },
    { height: 450000, hash: 'd279277f8f846a224d776450aa04da3cf978991a182c6f3075db4c48b173bbd7', time: 1415413000, bits: 0x1b03efda },
    { height: 771275, hash: '1b7d789ed82cbdc640952e7e7a54966c6488a32eaad54fc39dff83f310dbaaed', time: 1435666139, bits: 0x1b0444d2 },
    { height: 1000000, hash: '6aae55bea74235f0c80bd066349d4440c31f2d0f27d54265ecd484d8c1d11b47', time: 1450031952, bits: 0x1b02dcf8 },
    { height: 1250000, hash: '00c7a442055c1a990e11eea5371ca5c1c02a0677b33cc88ec728c45edc4ec060', time: 1465690401, bits: 0x1b045d00 },
    { height: 1500000, hash: 'f1d32d6920de7b617d51e74bdf4e58adccaa582ffdc8657464454f16a952fca6', time: 1481313507, bits: 0x1b0306ef },
    { height: 1750000, hash: '5c8e7327984f0d6f59447d89d143e5f6eafc524c82ad95d176c5cec082ae2001', time: 1496985750, bits: 0x1b00d4d4 },
    { height: 2000000, hash: '9914f0e82e39bbf21950792e8816620d71b9965bdbbc14e72a95e3ab9618fea8', time: 1512600918, bits: 0x1a1c1225 },
    { height: 2031142, hash: '893297d89afb7599a3c571ca31a3b80e8353f4cf39872400ad0f57d26c4c5d42', time: 1514549787, bits: 0x1a15d633 },
    { height: 2250000, hash: '0a87a8d4e40dca52763f93812a288741806380cd569537039ee927045c6bc338', time: 1528215255, bits: 0x1a053477 },
    { height: 2510150, hash: '77e3f4a4bcb4a2c15e8015525e3d15b466f6c022f6ca82698f329edef7d9777e', time: 1544484077, bits: 0x1a0868af },
    { height: 2750000, hash: 'd4f8abb835930d3c4f92ca718aaa09bef545076bd872354e0b2b85deefacf2e3', time: 1559459044, bits: 0x1a0292e2 },
    { height: 3000000, hash: '195a83b091fb3ee7ecb56f2e63d01709293f57f971ccf373d93890c8dc1033db', time: 1575096781, bits: 0x1a07da10 },
    { height: 3250000, hash: '7f3e28bf9e309c4b57a4b70aa64d3b2ea5250ae797af84976ddc420d49684034', time: 1590799169, bits: 0x1a05bfa3 },
    { height: 3500000, hash: 'eaa303b93c1c64d2b3a2cdcf6ccf21b10cc36626965cc2619661e8e1879abdfb', time: 1606543340, bits: 0x1a08d505 },
    { height: 3606083, hash: '954c7c66dee51f0a3fb1edb26200b735f5275fe54d9505c76ebd2bcabac36f1e', time: 1613218169, bits: 0x1a03d764 },
    { height: 3854173, hash: 'e4b4ecda4c022406c502a247c0525480268ce7abbbef632796e8ca1646425e75', time: 1628934997, bits: 0x1a03ca36 },
    { height: 3963597, hash: '2b6927cfaa5e82353d45f02be8aadd3bfd165ece5ce24b9bfa4db20432befb5d', time: 1635884460, bits: 0x1a037bc9 },
    { height: 4303965, hash: 'ed7d266dcbd8bb8af80f9ccb8deb3e18f9cc3f6972912680feeb37b090f8cee0', time: 1657646310, bits: 0x1a0344f5 },
  ].map((c) => Object.freeze(c)),
);

export const TESTNET_CHECKPOINTS: readonly Checkpoint[] = Object.freeze(
  [
    { height: 0, hash: 'bb0a78264637406b6360aad926284d544d7049f45189db5664f3c4d07350559e', time: 1391503289, bits: 0x1e0ffff0 },
    { height: 483173, hash: 'a804201ca0aceb7e937ef7a3c613a9b7589245b10cc095148c4ce4965b0b73b5', time: 1427629321, bits: 0x1e0fffff },
    { height: 591117, hash: '5f6b93b2c28cedf32467d900369b8be6700f0649388a7dbfd3ebd4a01b1ffad8', time: 1431705386, bits: 0x1d104d88 },
    { height: 658924, hash: 'ed6c8324d9a77195ee080f225a0fca6346495e08ded99bcda47a8eea5a8a620b', time: 1433993669, bits: 0x1e0642c3 },
    { height: 703635, hash: '839fa54617adcd582d53030a37455c14a87a806f6615aa8213f13e196230ff7f', time: 1440601451, bits: 0x1e0fffff },
    { height: 1000000, hash: '1fe4d44ea4d1edb031f52f0d7c635db8190dc871a190654c41d2450086b8ef0e', time: 1495653305, bits: 0x1e0fffff },
    { height: 1202214, hash: 'a2179767a87ee4e95944703976fee63578ec04fa3ac2fc1c9c2c83587d096977', time: 1514565123, bits: 0x1e0d406a },
    { height: 1250000, hash: 'b46affb421872ca8efa30366b09694e2f9bf077f7258213be14adb05a9f41883', time: 1524645876, bits: 0x1e0fffff },
    { height: 1500000, hash: '0caa041b47b4d18a4f44bdc05cef1a96d5196ce7b2e32ad3e4eb9ba505144917', time: 1544835691, bits: 0x1e0fffff },
    { height: 1750000, hash: '8042462366d854ad39b8b95ed2ca12e89a526ceee5a90042d55ebb24d5aab7e9', time: 1549617048, bits: 0x1d027d2a },
    { height: 2000000, hash: 'd6acde73e1b42fc17f29dcc76f63946d378ae1bd4eafab44d801a25be784103c', time: 1563868614, bits: 0x1e0bf5da },
    { height: 2250000, hash: 'c4342ae6d9a522a02e5607411df1b00e9329563ef844a758d762d601d42c86dc', time: 1586841190, bits: 0x1e0fffff },
    { height: 2500000, hash: '3a66ec4933fbb348c9b1889aaf2f732fe429fd9a8f74fee6895eae061ac897e2', time: 1590565063, bits: 0x1e0e2221 },
    { height: 2750000, hash: '473ea9f625d59f534ffcc9738ffc58f7b7b1e0e993078614f5484a9505885563', time: 1594694481, bits: 0x1d00ee30 },
    { height: 3062910, hash: '113c41c00934f940a41f99d18b2ad9aefd183a4b7fe80527e1e6c12779bd0246', time: 1613218844, bits: 0x1e0e2221 },
    { height: 3286675, hash: '07fef07a255d510297c9189dc96da5f4e41a8184bc979df8294487f07fee1cf3', time: 1628932841, bits: 0x1e0fffff },
    { height: 3445426, hash: '70574db7856bd685abe7b0a8a3e79b29882620645bd763b01459176bceb58cd1', time: 1635884611, bits: 0x1e0fffff },
    { height: 3976284, hash: 'af23c3e750bb4f2ce091235f006e7e4e2af453d4c866282e7870471dcfeb4382', time: 1657646588, bits: 0x1e0fffff },
  ].map((c) => Object.freeze(c)),
);
